import { Prisma, type PrismaClient } from '../../../generated/prisma/client.js';
import { likeLiteral } from '../../../lib/db/like.js';
import { countsByParent, windowPages, type NestedList } from '../../../lib/graph/nested.js';
import { LIVE } from '../audit.js';
import { deviceWhere, type DeviceConditions, type DeviceRow } from '../devices/service.js';
import { holidayIdOf, type HolidayRow } from '../holidays/service.js';
import { cursorAt, pairKey } from '../keys.js';
import type { MachineRow } from './machines.js';
import type { CentreUserRow } from './service.js';

/** A centre's machines as the rows must meet them: the centre's language and the filter's other fields. */
export interface MachineConditions {
  langCode: string;
  zoneCode?: string;
  /** part of the name, any case, taken literally */
  name?: string;
  isActive?: boolean;
}

/** A location's holidays as the rows must meet them: one language, a date range (both ends included), observed or not. */
export interface HolidayConditions {
  langCode: string;
  from?: Date;
  to?: Date;
  isActive?: boolean;
}

const LIVE_SQL = Prisma.sql`"isDeleted" = false`;
/** `column IN (values)`, nothing for no values (Prisma's `in: []`). */
const isIn = (column: Prisma.Sql, values: readonly string[]): Prisma.Sql =>
  values.length ? Prisma.sql`${column} IN (${Prisma.join([...values])})` : Prisma.sql`FALSE`;
/** The same literal, case-insensitive match as Prisma's `contains` with `likeLiteral` (its wildcards escaped). */
const nameContains = (name: string): Prisma.Sql => Prisma.sql`"name" ILIKE ${`%${likeLiteral(name)}%`}`;
/** A date column against yyyy-MM-dd, as the date it is (no time zone in between). */
const day = (date: Date): string => date.toISOString().slice(0, 10);
/** The conditions given, joined by AND. */
const all = (conditions: readonly (Prisma.Sql | undefined)[]): Prisma.Sql =>
  Prisma.join(
    conditions.filter((condition): condition is Prisma.Sql => condition !== undefined),
    ' AND ',
  );

/** A value computed once, when first asked for (a list's rules, read by its page query and its count alike). */
function once<T>(compute: () => Promise<T>): () => Promise<T> {
  let value: Promise<T> | undefined;
  return () => (value ??= compute());
}

/**
 * The lists under each centre of a page (users, machines, devices) and under
 * each holiday location (holidays), for `nestedConnection`: for every parent
 * of the request one window query (`pagesByParent`) and one grouped count,
 * each parent's page in the order of the same list asked for alone, with the
 * same conditions. The callers (CentreService) decide who reaches which centre.
 */
export function centreListsStorage(prisma: PrismaClient) {
  return {
    /** The users mapped to each centre, by user id. */
    users(): NestedList<CentreUserRow> {
      return {
        pages: windowPages<CentreUserRow>(prisma, { table: 'md_reg_center_user', parentColumn: 'regCenterId', where: LIVE_SQL, orderBy: [['userId', 'asc']] }),
        counts: async (centreIds) =>
          countsByParent(
            await prisma.registrationCenterUser.groupBy({
              by: ['regCenterId'],
              where: { regCenterId: { in: [...centreIds] }, ...LIVE },
              _count: { _all: true },
            }),
            (group) => group.regCenterId,
          ),
        after: (centreId, page) =>
          prisma.registrationCenterUser.findMany({
            where: { regCenterId: centreId, ...LIVE },
            orderBy: { userId: 'asc' },
            ...cursorAt(page, ([regCenterId, userId]) => ({ regCenterId_userId: { regCenterId, userId } })),
          }),
        key: (row) => pairKey(row.regCenterId, row.userId),
      };
    },

    /** The machines placed at each centre, in one language, by id. */
    machines(conditions: MachineConditions): NestedList<MachineRow> {
      const where = (centreIds: readonly string[]): Prisma.MachineWhereInput => ({
        AND: [
          LIVE,
          { regCenterId: { in: [...centreIds] }, langCode: conditions.langCode },
          conditions.zoneCode ? { zoneCode: conditions.zoneCode } : {},
          conditions.name ? { name: { contains: likeLiteral(conditions.name), mode: 'insensitive' } } : {},
          conditions.isActive !== undefined ? { isActive: conditions.isActive } : {},
        ],
      });
      const sql = all([
        LIVE_SQL,
        Prisma.sql`"langCode" = ${conditions.langCode}`,
        conditions.zoneCode ? Prisma.sql`"zoneCode" = ${conditions.zoneCode}` : undefined,
        conditions.name ? nameContains(conditions.name) : undefined,
        conditions.isActive !== undefined ? Prisma.sql`"isActive" = ${conditions.isActive}` : undefined,
      ]);
      return {
        pages: windowPages<MachineRow>(prisma, {
          table: 'md_machine',
          parentColumn: 'regCenterId',
          where: sql,
          orderBy: [
            ['id', 'asc'],
            ['langCode', 'asc'],
          ],
        }),
        counts: async (centreIds) =>
          countsByParent(
            await prisma.machine.groupBy({ by: ['regCenterId'], where: where(centreIds), _count: { _all: true } }),
            (group) => group.regCenterId ?? '',
          ),
        after: (centreId, page) =>
          prisma.machine.findMany({
            where: where([centreId]),
            orderBy: [{ id: 'asc' }, { langCode: 'asc' }],
            ...cursorAt(page, ([id, langCode]) => ({ id_langCode: { id, langCode } })),
          }),
        key: (row) => pairKey(row.id, row.langCode),
      };
    },

    /**
     * The devices placed at each centre, by id, that meet `conditions` (the
     * device list's rules, read once for the whole page when first needed;
     * their regCenterId is the parent's).
     */
    devices(conditions: () => Promise<DeviceConditions>): NestedList<DeviceRow> {
      const read = once(conditions);
      const where = async (centreIds: readonly string[]): Promise<Prisma.DeviceWhereInput> => {
        // The parent is the centre: the conditions' own centre, if any, gives way.
        const { regCenterId: _centre, ...rest } = await read();
        return { AND: [deviceWhere(rest), { regCenterId: { in: [...centreIds] } }] };
      };
      const sql = async (): Promise<Prisma.Sql> => {
        const c = await read();
        return all([
          LIVE_SQL,
          isIn(Prisma.sql`"zoneCode"`, c.zoneCodes),
          c.specIds ? isIn(Prisma.sql`"deviceSpecId"`, c.specIds) : undefined,
          c.deviceSpecId ? Prisma.sql`"deviceSpecId" = ${c.deviceSpecId}` : undefined,
          c.langCode ? Prisma.sql`"langCode" = ${c.langCode}` : undefined,
          c.isActive !== undefined ? Prisma.sql`"isActive" = ${c.isActive}` : undefined,
          c.name ? nameContains(c.name) : undefined,
        ]);
      };
      return {
        pages: windowPages<DeviceRow>(prisma, async () => ({
          table: 'md_device',
          parentColumn: 'regCenterId',
          where: await sql(),
          orderBy: [
            ['id', 'asc'],
            ['langCode', 'asc'],
          ],
        })),
        counts: async (centreIds) =>
          countsByParent(
            await prisma.device.groupBy({ by: ['regCenterId'], where: await where(centreIds), _count: { _all: true } }),
            (group) => group.regCenterId ?? '',
          ),
        after: async (centreId, page) =>
          prisma.device.findMany({
            where: await where([centreId]),
            orderBy: [{ id: 'asc' }, { langCode: 'asc' }],
            ...cursorAt(page, ([id, langCode]) => ({ id_langCode: { id, langCode } })),
          }),
        key: (row) => pairKey(row.id, row.langCode),
      };
    },

    /** The holidays of each location (a centre's holiday location), in one language, by date then id. */
    holidays(conditions: HolidayConditions): NestedList<HolidayRow> {
      const where = (locationCodes: readonly string[]): Prisma.HolidayWhereInput => ({
        ...LIVE,
        locationCode: { in: [...locationCodes] },
        langCode: conditions.langCode,
        ...(conditions.from || conditions.to
          ? { holidayDate: { ...(conditions.from ? { gte: conditions.from } : {}), ...(conditions.to ? { lte: conditions.to } : {}) } }
          : {}),
        ...(conditions.isActive !== undefined ? { isActive: conditions.isActive } : {}),
      });
      const sql = all([
        LIVE_SQL,
        Prisma.sql`"langCode" = ${conditions.langCode}`,
        conditions.from ? Prisma.sql`"holidayDate" >= ${day(conditions.from)}::date` : undefined,
        conditions.to ? Prisma.sql`"holidayDate" <= ${day(conditions.to)}::date` : undefined,
        conditions.isActive !== undefined ? Prisma.sql`"isActive" = ${conditions.isActive}` : undefined,
      ]);
      return {
        pages: windowPages<HolidayRow>(prisma, {
          table: 'md_holiday',
          parentColumn: 'locationCode',
          where: sql,
          orderBy: [
            ['holidayDate', 'asc'],
            ['id', 'asc'],
            ['langCode', 'asc'],
          ],
        }),
        counts: async (locationCodes) =>
          countsByParent(
            await prisma.holiday.groupBy({ by: ['locationCode'], where: where(locationCodes), _count: { _all: true } }),
            (group) => group.locationCode,
          ),
        after: (locationCode, page) =>
          prisma.holiday.findMany({
            where: where([locationCode]),
            orderBy: [{ holidayDate: 'asc' }, { id: 'asc' }, { langCode: 'asc' }],
            ...cursorAt(page, ([id, langCode]) => ({ id_langCode: { id: holidayIdOf(id), langCode } })),
          }),
        key: (row) => pairKey(String(row.id), row.langCode),
      };
    },
  };
}

export type CentreListsStorage = ReturnType<typeof centreListsStorage>;
