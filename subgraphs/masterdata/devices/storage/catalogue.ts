import type { DeviceSpecification, DeviceType, Prisma, PrismaClient } from '../../../../generated/prisma/client.js';
import { connection, type Connection, type PageArgs } from '../../../../lib/graph/connection.js';
import { LIVE, type Updated } from '../../audit.js';
import { pairKey, pairPage } from '../../keys.js';

export type DeviceTypeRow = DeviceType;
export type DeviceSpecificationRow = DeviceSpecification;

export type DeviceTypeKey = Pick<DeviceTypeRow, 'code' | 'langCode'>;
export type DeviceSpecificationKey = Pick<DeviceSpecificationRow, 'id' | 'langCode'>;
/** A type's columns apart from its key, as a create or a revival writes them. */
export type DeviceTypeData = Omit<DeviceTypeRow, keyof DeviceTypeKey>;
export type DeviceSpecificationData = Omit<DeviceSpecificationRow, keyof DeviceSpecificationKey>;
/** What an update of a specification writes: what it describes and who changed it when. */
export type DeviceSpecificationChange = Pick<
  DeviceSpecificationRow,
  'name' | 'brand' | 'model' | 'deviceTypeCode' | 'minDriverVersion' | 'description' | 'isActive'
> &
  Updated;
export type DeviceTypeChange = Pick<DeviceTypeRow, 'name' | 'description' | 'isActive'> & Updated;

export interface DeviceTypeFilter {
  langCode?: string | null;
  isActive?: boolean | null;
}

export interface DeviceSpecificationFilter extends DeviceTypeFilter {
  deviceTypeCode?: string | null;
}

/** The catalogue's tables (device types, specifications) as its rules see them. Every read is of live rows unless it says otherwise. */
export interface CatalogueStore {
  /** a type's state, deleted or not; null when there was never one */
  typeState(key: DeviceTypeKey): Promise<{ isDeleted: boolean } | null>;
  createType(key: DeviceTypeKey, data: DeviceTypeData): Promise<DeviceTypeRow>;
  /** writes `data` over the key's deleted row; how many rows it wrote */
  reviveType(key: DeviceTypeKey, data: DeviceTypeData): Promise<{ count: number }>;
  /** rewrites a live type; how many rows it wrote */
  updateType(key: DeviceTypeKey, change: DeviceTypeChange): Promise<number>;
  /** the key's type, deleted or not */
  type(key: DeviceTypeKey): Promise<DeviceTypeRow>;
  typeExists(code: string): Promise<boolean>;
  specificationState(key: DeviceSpecificationKey): Promise<{ isDeleted: boolean } | null>;
  createSpecification(key: DeviceSpecificationKey, data: DeviceSpecificationData): Promise<DeviceSpecificationRow>;
  reviveSpecification(key: DeviceSpecificationKey, data: DeviceSpecificationData): Promise<{ count: number }>;
  /** the key's specification, deleted or not */
  specification(key: DeviceSpecificationKey): Promise<DeviceSpecificationRow>;
  /** whether the key's specification is live */
  specificationLive(key: DeviceSpecificationKey): Promise<boolean>;
  /** rewrites the key's specification and reads it back */
  updateSpecification(key: DeviceSpecificationKey, change: DeviceSpecificationChange): Promise<DeviceSpecificationRow>;
  /** whether a specification exists (in any language) */
  specificationExists(id: string): Promise<boolean>;
  /** the distinct ids of the specifications of a device type */
  specificationIdsOfType(deviceTypeCode: string): Promise<string[]>;
  /** specifications of a language (and type), by id, at most `take` */
  specifications(langCode: string, deviceTypeCode: string | undefined, take: number): Promise<DeviceSpecificationRow[]>;
  typesPage(page: PageArgs, filter?: DeviceTypeFilter | null): Promise<Connection<DeviceTypeRow>>;
  specificationsPage(page: PageArgs, filter?: DeviceSpecificationFilter | null): Promise<Connection<DeviceSpecificationRow>>;
  /** types by (code, langCode), deleted ones too */
  typesByPairs(pairs: readonly [string, string][]): Promise<DeviceTypeRow[]>;
  /** specifications by (id, langCode), deleted ones too */
  specificationsByPairs(pairs: readonly [string, string][]): Promise<DeviceSpecificationRow[]>;
}

const BY_CODE = [{ code: 'asc' }, { langCode: 'asc' }] as const;
const BY_ID = [{ id: 'asc' }, { langCode: 'asc' }] as const;

/** The language and status filters every catalogue list shares. */
const activeIn = (filter?: DeviceTypeFilter | null) => ({
  ...(filter?.langCode ? { langCode: filter.langCode } : {}),
  ...(typeof filter?.isActive === 'boolean' ? { isActive: filter.isActive } : {}),
});

/** The catalogue's tables (md_device_type, md_device_spec): the only code that touches them. */
export class CatalogueStorage implements CatalogueStore {
  constructor(private readonly prisma: PrismaClient) {}

  typeState(key: DeviceTypeKey): Promise<{ isDeleted: boolean } | null> {
    return this.prisma.deviceType.findUnique({ where: { code_langCode: key }, select: { isDeleted: true } });
  }

  createType(key: DeviceTypeKey, data: DeviceTypeData): Promise<DeviceTypeRow> {
    return this.prisma.deviceType.create({ data: { ...key, ...data } });
  }

  reviveType(key: DeviceTypeKey, data: DeviceTypeData): Promise<{ count: number }> {
    return this.prisma.deviceType.updateMany({ where: { ...key, isDeleted: true }, data });
  }

  async updateType(key: DeviceTypeKey, change: DeviceTypeChange): Promise<number> {
    return (await this.prisma.deviceType.updateMany({ where: { ...key, ...LIVE }, data: change })).count;
  }

  type(key: DeviceTypeKey): Promise<DeviceTypeRow> {
    return this.prisma.deviceType.findUniqueOrThrow({ where: { code_langCode: key } });
  }

  async typeExists(code: string): Promise<boolean> {
    return (await this.prisma.deviceType.findFirst({ where: { code, ...LIVE }, select: { code: true } })) !== null;
  }

  specificationState(key: DeviceSpecificationKey): Promise<{ isDeleted: boolean } | null> {
    return this.prisma.deviceSpecification.findUnique({ where: { id_langCode: key }, select: { isDeleted: true } });
  }

  createSpecification(key: DeviceSpecificationKey, data: DeviceSpecificationData): Promise<DeviceSpecificationRow> {
    return this.prisma.deviceSpecification.create({ data: { ...key, ...data } });
  }

  reviveSpecification(key: DeviceSpecificationKey, data: DeviceSpecificationData): Promise<{ count: number }> {
    return this.prisma.deviceSpecification.updateMany({ where: { ...key, isDeleted: true }, data });
  }

  specification(key: DeviceSpecificationKey): Promise<DeviceSpecificationRow> {
    return this.prisma.deviceSpecification.findUniqueOrThrow({ where: { id_langCode: key } });
  }

  async specificationLive(key: DeviceSpecificationKey): Promise<boolean> {
    return (await this.prisma.deviceSpecification.findFirst({ where: { ...key, ...LIVE }, select: { id: true } })) !== null;
  }

  async updateSpecification(key: DeviceSpecificationKey, change: DeviceSpecificationChange): Promise<DeviceSpecificationRow> {
    await this.prisma.deviceSpecification.update({ where: { id_langCode: key }, data: change });
    return this.specification(key);
  }

  async specificationExists(id: string): Promise<boolean> {
    return (await this.prisma.deviceSpecification.findFirst({ where: { id, ...LIVE }, select: { id: true } })) !== null;
  }

  async specificationIdsOfType(deviceTypeCode: string): Promise<string[]> {
    const rows = await this.prisma.deviceSpecification.findMany({ where: { deviceTypeCode, ...LIVE }, select: { id: true }, distinct: ['id'] });
    return rows.map((row) => row.id);
  }

  specifications(langCode: string, deviceTypeCode: string | undefined, take: number): Promise<DeviceSpecificationRow[]> {
    return this.prisma.deviceSpecification.findMany({
      where: { langCode, ...(deviceTypeCode ? { deviceTypeCode } : {}), ...LIVE },
      orderBy: [...BY_ID],
      take,
    });
  }

  typesPage(page: PageArgs, filter?: DeviceTypeFilter | null): Promise<Connection<DeviceTypeRow>> {
    const where: Prisma.DeviceTypeWhereInput = { ...LIVE, ...activeIn(filter) };
    return connection(
      page,
      (row) => pairKey(row.code, row.langCode),
      (query) => {
        const { after, ...rest } = pairPage(query);
        return this.prisma.deviceType.findMany({
          where,
          orderBy: [...BY_CODE],
          ...rest,
          ...(after ? { cursor: { code_langCode: { code: after[0], langCode: after[1] } } } : {}),
        });
      },
      () => this.prisma.deviceType.count({ where }),
    );
  }

  specificationsPage(page: PageArgs, filter?: DeviceSpecificationFilter | null): Promise<Connection<DeviceSpecificationRow>> {
    const where: Prisma.DeviceSpecificationWhereInput = {
      ...LIVE,
      ...activeIn(filter),
      ...(filter?.deviceTypeCode ? { deviceTypeCode: filter.deviceTypeCode } : {}),
    };
    return connection(
      page,
      (row) => pairKey(row.id, row.langCode),
      (query) => {
        const { after, ...rest } = pairPage(query);
        return this.prisma.deviceSpecification.findMany({
          where,
          orderBy: [...BY_ID],
          ...rest,
          ...(after ? { cursor: { id_langCode: { id: after[0], langCode: after[1] } } } : {}),
        });
      },
      () => this.prisma.deviceSpecification.count({ where }),
    );
  }

  typesByPairs(pairs: readonly [string, string][]): Promise<DeviceTypeRow[]> {
    return this.prisma.deviceType.findMany({ where: { OR: pairs.map(([code, langCode]) => ({ code, langCode })) } });
  }

  specificationsByPairs(pairs: readonly [string, string][]): Promise<DeviceSpecificationRow[]> {
    return this.prisma.deviceSpecification.findMany({ where: { OR: pairs.map(([id, langCode]) => ({ id, langCode })) } });
  }
}
