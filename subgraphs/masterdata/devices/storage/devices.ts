import { Prisma, type Device, type PrismaClient } from '../../../../generated/prisma/client.js';
import type { Tx } from '../../../../lib/db/lock.js';
import { containsLiteral } from '../../../../lib/db/like.js';
import { connection, type Connection, type PageArgs } from '../../../../lib/graph/connection.js';
import { type NestedList } from '../../../../lib/graph/nested.js';
import { windowList } from '../../../../lib/db/window.js';
import { LIVE, type Deleted, type Updated } from '../../audit.js';
import { cursorAt, pairKey, pairPage } from '../../keys.js';
import {
  filterValues,
  likeLiteral,
  runSearch,
  type FilterValue,
  type FilterValuesRequest,
  type SearchColumns,
  type SearchPage,
  type SearchRequest,
} from '../../search.js';

export type DeviceRow = Device;
export type DeviceKey = Pick<DeviceRow, 'id' | 'langCode'>;
/** A device's columns apart from its key and its centre, as a create or a revival writes them. */
export type DeviceData = Omit<DeviceRow, keyof DeviceKey | 'regCenterId'>;
/** What a device is apart from its name, the same in each of its languages, with who changed it when. */
export type DeviceShared = Pick<DeviceRow, 'serialNum' | 'deviceSpecId' | 'macAddress' | 'ipAddress' | 'zoneCode' | 'validityDateTime' | 'isActive'> & Updated;

/**
 * A device list's filter as conditions on the rows, once its rules are
 * read (the caller's zones, a zone's subtree, a type's specifications):
 * the portal's list and the lists under a page of centres apply the same.
 */
export interface DeviceConditions {
  /** the zones the rows lie in: the caller's, or those of them at and below the zone asked for */
  zoneCodes: readonly string[];
  /** the specifications of the device type asked for */
  specIds?: readonly string[];
  deviceSpecId?: string;
  langCode?: string;
  isActive?: boolean;
  /** part of the name, any case, taken literally */
  name?: string;
  /** the centre the rows are placed at (a centre's own list gives it by parent) */
  regCenterId?: string;
}

/** The devices a search or a column's values read: those of these zones (of a language, when given). */
export interface DeviceScope {
  zoneCodes: readonly string[];
  langCode?: string | null;
}

/** The devices' table as the device rules see it. Every read is of live rows unless it says otherwise. */
export interface DeviceStore {
  /** every row of a device, deleted ones too */
  rowsOfId(id: string): Promise<Pick<DeviceRow, 'langCode' | 'zoneCode' | 'isDeleted'>[]>;
  create(key: DeviceKey, data: DeviceData): Promise<DeviceRow>;
  /** writes `data` over the key's deleted row; how many rows it wrote */
  revive(key: DeviceKey, data: DeviceData): Promise<{ count: number }>;
  /** the key's row, deleted or not */
  device(key: DeviceKey): Promise<DeviceRow>;
  live(key: DeviceKey): Promise<DeviceRow | null>;
  /** writes the shared fields over every language of the device and the name over the key's row, together; the key's row after */
  rewrite(key: DeviceKey, shared: DeviceShared, name: string): Promise<DeviceRow>;
  /** where each language of a device lies */
  placements(id: string): Promise<Pick<DeviceRow, 'zoneCode' | 'regCenterId'>[]>;
  /** soft-deletes every language of a device */
  retire(id: string, stamp: Deleted): Promise<void>;
  /** the devices of a language in these zones (and specifications), by id, at most `take` */
  ofLanguage(langCode: string, zoneCodes: readonly string[], specIds: readonly string[] | undefined, take: number): Promise<DeviceRow[]>;
  /** MOSIP's search (its filters, sort and page) over the scope */
  search(scope: DeviceScope, request: SearchRequest): Promise<SearchPage<DeviceRow>>;
  /** the values of the columns asked for over the scope */
  filterValues(scope: DeviceScope, request: FilterValuesRequest): Promise<{ filters: FilterValue[] }>;
  /** a page of the devices that meet the conditions, by id and language */
  page(conditions: DeviceConditions, page: PageArgs): Promise<Connection<DeviceRow>>;
  /** devices by (id, langCode), in these zones, deleted ones too */
  byPairs(pairs: readonly [string, string][], zoneCodes: readonly string[]): Promise<DeviceRow[]>;
  /** the devices placed at each centre that meet the conditions (read when the list is first read), by id: the parent is the centre */
  atCentres(conditions: () => Promise<DeviceConditions>): NestedList<DeviceRow>;
}

/** Prisma's condition on Device for the live rows that meet `conditions`. */
const deviceWhere = (conditions: DeviceConditions): Prisma.DeviceWhereInput => ({
  AND: [
    LIVE,
    { zoneCode: { in: [...conditions.zoneCodes] } },
    conditions.specIds ? { deviceSpecId: { in: [...conditions.specIds] } } : {},
    conditions.deviceSpecId ? { deviceSpecId: conditions.deviceSpecId } : {},
    conditions.langCode ? { langCode: conditions.langCode } : {},
    conditions.isActive !== undefined ? { isActive: conditions.isActive } : {},
    conditions.name ? { name: { contains: likeLiteral(conditions.name), mode: 'insensitive' } } : {},
    conditions.regCenterId ? { regCenterId: conditions.regCenterId } : {},
  ],
});

const scopeWhere = (scope: DeviceScope): Prisma.DeviceWhereInput => ({
  ...LIVE,
  zoneCode: { in: [...scope.zoneCodes] },
  ...(scope.langCode ? { langCode: scope.langCode } : {}),
});

const TEXT = ['contains', 'equals', 'startsWith'] as const;

/** The columns a device search filters and sorts by (MOSIP's names). */
const COLUMNS: SearchColumns = {
  id: { field: 'id', kind: 'text', filters: TEXT },
  name: { field: 'name', kind: 'text', filters: TEXT },
  serialNum: { field: 'serialNum', kind: 'text', filters: TEXT },
  macAddress: { field: 'macAddress', kind: 'text', filters: TEXT },
  deviceSpecId: { field: 'deviceSpecId', kind: 'text', filters: TEXT },
  zoneCode: { field: 'zoneCode', kind: 'text', filters: TEXT },
  isActive: { field: 'isActive', kind: 'boolean', filters: ['equals'] },
  createdDateTime: { field: 'createdAt', kind: 'date' },
  updatedDateTime: { field: 'updatedAt', kind: 'date' },
};
const KEY = ['id', 'langCode'] as const;

const LIVE_SQL = Prisma.sql`"isDeleted" = false`;
/** `column IN (values)`, nothing for no values (Prisma's `in: []`). */
const isIn = (column: Prisma.Sql, values: readonly string[]): Prisma.Sql =>
  values.length ? Prisma.sql`${column} IN (${Prisma.join([...values])})` : Prisma.sql`FALSE`;

/** How many live device rows are placed at a centre (the centres' dependency check, in its transaction). */
export const devicesPlacedAt = (db: Tx | PrismaClient, centreId: string): Promise<number> => db.device.count({ where: { regCenterId: centreId, ...LIVE } });

/** The devices' table (md_device): the only code that touches it. */
export class DeviceStorage implements DeviceStore {
  constructor(private readonly prisma: PrismaClient) {}

  rowsOfId(id: string): Promise<Pick<DeviceRow, 'langCode' | 'zoneCode' | 'isDeleted'>[]> {
    return this.prisma.device.findMany({ where: { id }, select: { langCode: true, zoneCode: true, isDeleted: true } });
  }

  create(key: DeviceKey, data: DeviceData): Promise<DeviceRow> {
    return this.prisma.device.create({ data: { ...key, ...data } });
  }

  revive(key: DeviceKey, data: DeviceData): Promise<{ count: number }> {
    return this.prisma.device.updateMany({ where: { ...key, isDeleted: true }, data });
  }

  device(key: DeviceKey): Promise<DeviceRow> {
    return this.prisma.device.findUniqueOrThrow({ where: { id_langCode: key } });
  }

  live(key: DeviceKey): Promise<DeviceRow | null> {
    return this.prisma.device.findFirst({ where: { ...key, ...LIVE } });
  }

  async rewrite(key: DeviceKey, shared: DeviceShared, name: string): Promise<DeviceRow> {
    await this.prisma.$transaction([
      this.prisma.device.updateMany({ where: { id: key.id, ...LIVE }, data: shared }),
      this.prisma.device.update({ where: { id_langCode: key }, data: { name } }),
    ]);
    return this.device(key);
  }

  placements(id: string): Promise<Pick<DeviceRow, 'zoneCode' | 'regCenterId'>[]> {
    return this.prisma.device.findMany({ where: { id, ...LIVE }, select: { zoneCode: true, regCenterId: true } });
  }

  async retire(id: string, stamp: Deleted): Promise<void> {
    await this.prisma.device.updateMany({ where: { id, ...LIVE }, data: stamp });
  }

  ofLanguage(langCode: string, zoneCodes: readonly string[], specIds: readonly string[] | undefined, take: number): Promise<DeviceRow[]> {
    return this.prisma.device.findMany({
      where: { langCode, zoneCode: { in: [...zoneCodes] }, ...(specIds ? { deviceSpecId: { in: [...specIds] } } : {}), ...LIVE },
      orderBy: [{ id: 'asc' }],
      take,
    });
  }

  search(scope: DeviceScope, request: SearchRequest): Promise<SearchPage<DeviceRow>> {
    return runSearch(
      request,
      COLUMNS,
      { sortfield: 'createdDateTime', sorttype: 'DESC' },
      KEY,
      scopeWhere(scope),
      (query) =>
        this.prisma.device.findMany({
          where: query.where as Prisma.DeviceWhereInput,
          orderBy: query.orderBy,
          skip: query.skip,
          take: query.take,
        }),
      (where) => this.prisma.device.count({ where: where as Prisma.DeviceWhereInput }),
    );
  }

  filterValues(scope: DeviceScope, request: FilterValuesRequest): Promise<{ filters: FilterValue[] }> {
    return filterValues(request, COLUMNS, scopeWhere(scope), async (where, field, distinct, take) => {
      const column = field as Prisma.DeviceScalarFieldEnum;
      const rows = await this.prisma.device.findMany({
        where: where,
        select: { [column]: true },
        ...(distinct ? { distinct: [column] } : {}),
        orderBy: { [column]: 'asc' },
        take,
      });
      return rows.map((row) => (row as Record<string, unknown>)[column]);
    });
  }

  page(conditions: DeviceConditions, page: PageArgs): Promise<Connection<DeviceRow>> {
    const where = deviceWhere(conditions);
    return connection(
      page,
      (row) => pairKey(row.id, row.langCode),
      (query) => {
        const { after, ...rest } = pairPage(query);
        return this.prisma.device.findMany({
          where,
          orderBy: [{ id: 'asc' }, { langCode: 'asc' }],
          ...rest,
          ...(after ? { cursor: { id_langCode: { id: after[0], langCode: after[1] } } } : {}),
        });
      },
      () => this.prisma.device.count({ where }),
    );
  }

  byPairs(pairs: readonly [string, string][], zoneCodes: readonly string[]): Promise<DeviceRow[]> {
    return this.prisma.device.findMany({ where: { OR: pairs.map(([id, langCode]) => ({ id, langCode })), zoneCode: { in: [...zoneCodes] } } });
  }

  /**
   * One window query and one grouped count for every centre of the request
   * (`windowList`), each centre's page in the order of the device list asked
   * for alone, with the same conditions.
   */
  atCentres(conditions: () => Promise<DeviceConditions>): NestedList<DeviceRow> {
    return windowList<DeviceRow>(
      this.prisma,
      async () => {
        const c = await conditions();
        return {
          table: 'md_device',
          parentColumn: 'regCenterId',
          where: [
            LIVE_SQL,
            isIn(Prisma.sql`"zoneCode"`, c.zoneCodes),
            c.specIds && isIn(Prisma.sql`"deviceSpecId"`, c.specIds),
            c.deviceSpecId && Prisma.sql`"deviceSpecId" = ${c.deviceSpecId}`,
            c.langCode && Prisma.sql`"langCode" = ${c.langCode}`,
            c.isActive !== undefined && Prisma.sql`"isActive" = ${c.isActive}`,
            c.name && containsLiteral(Prisma.sql`"name"`, c.name),
          ],
          orderBy: [
            ['id', 'asc'],
            ['langCode', 'asc'],
          ],
        };
      },
      {
        after: async (centreId, page) => {
          // The parent is the centre: the conditions' own centre, if any, gives way.
          const { regCenterId: _centre, ...rest } = await conditions();
          return this.prisma.device.findMany({
            where: { AND: [deviceWhere(rest), { regCenterId: centreId }] },
            orderBy: [{ id: 'asc' }, { langCode: 'asc' }],
            ...cursorAt(page, ([id, langCode]) => ({ id_langCode: { id, langCode } })),
          });
        },
        key: (row) => pairKey(row.id, row.langCode),
      },
    );
  }
}
