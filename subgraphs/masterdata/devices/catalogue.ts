import type { DeviceSpecification as DeviceSpecificationRow, DeviceType as DeviceTypeRow, Prisma, PrismaClient } from '../../../generated/prisma/client.js';
import { connection, type Connection, type PageArgs } from '../../../lib/graph/connection.js';
import type { Clock } from '../../../lib/time.js';
import { created, LIVE, updated } from '../audit.js';
import { masterdataErrors } from '../errors.js';
import { wholeList } from '../paged.js';
import { byPair, insertOrRevive, pairKey, pairPage, parsePair, requireLanguage } from '../keys.js';

export type { DeviceSpecificationRow, DeviceTypeRow };

export interface DeviceTypeInput {
  code: string;
  langCode: string;
  name: string;
  description?: string | null;
  isActive: boolean;
}

export interface DeviceSpecificationInput {
  id: string;
  langCode: string;
  name: string;
  brand: string;
  model: string;
  deviceTypeCode: string;
  minDriverVersion?: string | null;
  description?: string | null;
  isActive: boolean;
}

export interface DeviceTypeFilter {
  langCode?: string | null;
  isActive?: boolean | null;
}

export interface DeviceSpecificationFilter extends DeviceTypeFilter {
  deviceTypeCode?: string | null;
}

const BY_CODE = [{ code: 'asc' }, { langCode: 'asc' }] as const;
const BY_ID = [{ id: 'asc' }, { langCode: 'asc' }] as const;

/**
 * The catalogue devices are described by: device types and the
 * specifications (make and model) of a type. A code names the thing in
 * every language; each language is a row. A specification's type, and a
 * device's specification, must exist (in any language).
 */
export class DeviceCatalogueService {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly clock: Clock,
  ) {}

  async createType(by: string, input: DeviceTypeInput): Promise<DeviceTypeRow> {
    await requireLanguage(this.prisma, input.langCode);
    const key = { code: input.code, langCode: input.langCode };
    const data = {
      name: input.name,
      description: input.description ?? null,
      isActive: input.isActive,
      ...created(by, this.clock.now()),
      updatedBy: null,
      updatedAt: null,
    };
    return insertOrRevive({
      existing: await this.prisma.deviceType.findUnique({ where: { code_langCode: key }, select: { isDeleted: true } }),
      duplicate: () => masterdataErrors.deviceTypeInsert(`device type ${input.code} already exists in ${input.langCode}`),
      create: () => this.prisma.deviceType.create({ data: { ...key, ...data } }),
      revive: () => this.prisma.deviceType.updateMany({ where: { ...key, isDeleted: true }, data }),
      read: () => this.prisma.deviceType.findUniqueOrThrow({ where: { code_langCode: key } }),
    });
  }

  async updateType(by: string, input: DeviceTypeInput): Promise<DeviceTypeRow> {
    const key = { code: input.code, langCode: input.langCode };
    const { count } = await this.prisma.deviceType.updateMany({
      where: { ...key, ...LIVE },
      data: { name: input.name, description: input.description ?? null, isActive: input.isActive, ...updated(by, this.clock.now()) },
    });
    if (!count) throw masterdataErrors.deviceTypeNotFound(`${input.code} in ${input.langCode}`);
    return this.prisma.deviceType.findUniqueOrThrow({ where: { code_langCode: key } });
  }

  async createSpecification(by: string, input: DeviceSpecificationInput): Promise<DeviceSpecificationRow> {
    await requireLanguage(this.prisma, input.langCode);
    await this.requireType(input.deviceTypeCode);
    const key = { id: input.id, langCode: input.langCode };
    const data = { ...this.specData(input), ...created(by, this.clock.now()), updatedBy: null, updatedAt: null };
    return insertOrRevive({
      existing: await this.prisma.deviceSpecification.findUnique({ where: { id_langCode: key }, select: { isDeleted: true } }),
      duplicate: () => masterdataErrors.deviceSpecInsert(`device specification ${input.id} already exists in ${input.langCode}`),
      create: () => this.prisma.deviceSpecification.create({ data: { ...key, ...data } }),
      revive: () => this.prisma.deviceSpecification.updateMany({ where: { ...key, isDeleted: true }, data }),
      read: () => this.prisma.deviceSpecification.findUniqueOrThrow({ where: { id_langCode: key } }),
    });
  }

  async updateSpecification(by: string, input: DeviceSpecificationInput): Promise<DeviceSpecificationRow> {
    const key = { id: input.id, langCode: input.langCode };
    if (!(await this.prisma.deviceSpecification.findFirst({ where: { ...key, ...LIVE }, select: { id: true } }))) {
      throw masterdataErrors.deviceSpecNotFound(`${input.id} in ${input.langCode}`);
    }
    await this.requireType(input.deviceTypeCode);
    await this.prisma.deviceSpecification.update({ where: { id_langCode: key }, data: { ...this.specData(input), ...updated(by, this.clock.now()) } });
    return this.prisma.deviceSpecification.findUniqueOrThrow({ where: { id_langCode: key } });
  }

  private specData(input: DeviceSpecificationInput) {
    return {
      name: input.name,
      brand: input.brand,
      model: input.model,
      deviceTypeCode: input.deviceTypeCode,
      minDriverVersion: input.minDriverVersion ?? null,
      description: input.description ?? null,
      isActive: input.isActive,
    };
  }

  private async requireType(code: string): Promise<void> {
    if (!(await this.prisma.deviceType.findFirst({ where: { code, ...LIVE }, select: { code: true } }))) throw masterdataErrors.deviceTypeNotFound(code);
  }

  /** Whether a specification exists (in any language). */
  async specificationExists(id: string): Promise<boolean> {
    return (await this.prisma.deviceSpecification.findFirst({ where: { id, ...LIVE }, select: { id: true } })) !== null;
  }

  /** The ids of the specifications of a device type. */
  async specificationIdsOfType(deviceTypeCode: string): Promise<string[]> {
    const rows = await this.prisma.deviceSpecification.findMany({ where: { deviceTypeCode, ...LIVE }, select: { id: true }, distinct: ['id'] });
    return rows.map((row) => row.id);
  }

  /** Specifications of a language (and type), whole (at most LIST_LIMIT: refused beyond); none is KER-MSD-012, as MOSIP answers. */
  async specifications(langCode: string, deviceTypeCode?: string): Promise<DeviceSpecificationRow[]> {
    const rows = await wholeList('device specifications', 'deviceSpecifications', (take) =>
      this.prisma.deviceSpecification.findMany({
        where: { langCode, ...(deviceTypeCode ? { deviceTypeCode } : {}), ...LIVE },
        orderBy: [...BY_ID],
        take,
      }),
    );
    if (!rows.length) throw masterdataErrors.deviceSpecNotFound(deviceTypeCode ? `${deviceTypeCode} in ${langCode}` : `in ${langCode}`);
    return rows;
  }

  listTypes(page: PageArgs, filter?: DeviceTypeFilter | null): Promise<Connection<DeviceTypeRow>> {
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

  listSpecifications(page: PageArgs, filter?: DeviceSpecificationFilter | null): Promise<Connection<DeviceSpecificationRow>> {
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

  async typesByKeys(keys: readonly string[]): Promise<Map<string, DeviceTypeRow>> {
    const rows = await this.prisma.deviceType.findMany({ where: { OR: keys.map(parsePair).map(([code, langCode]) => ({ code, langCode })) } });
    return byPair(rows, (row) => [row.code, row.langCode]);
  }

  async specificationsByKeys(keys: readonly string[]): Promise<Map<string, DeviceSpecificationRow>> {
    const rows = await this.prisma.deviceSpecification.findMany({ where: { OR: keys.map(parsePair).map(([id, langCode]) => ({ id, langCode })) } });
    return byPair(rows, (row) => [row.id, row.langCode]);
  }
}

/** The language and status filters every catalogue list shares. */
const activeIn = (filter?: DeviceTypeFilter | null) => ({
  ...(filter?.langCode ? { langCode: filter.langCode } : {}),
  ...(typeof filter?.isActive === 'boolean' ? { isActive: filter.isActive } : {}),
});
