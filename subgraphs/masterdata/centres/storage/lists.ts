import { Prisma, type Holiday, type PrismaClient } from '../../../../generated/prisma/client.js';
import { containsLiteral, likeLiteral } from '../../../../lib/db/like.js';
import { type NestedList } from '../../../../lib/graph/nested.js';
import { windowList } from '../../../../lib/db/window.js';
import { LIVE } from '../../audit.js';
import { cursorAt, pairKey } from '../../keys.js';
import type { CentreUserRow } from './centre-users.js';
import type { MachineRow } from './machines.js';

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

/** The lists under each centre of a page (and under each holiday location), for `nestedConnection`. */
export interface CentreLists {
  /** the users mapped to each centre, by user id */
  users(): NestedList<CentreUserRow>;
  /** the machines placed at each centre, in one language, by id */
  machines(conditions: MachineConditions): NestedList<MachineRow>;
  /** the holidays of each location, in one language, by date then id; `holidayId` reads a cursor's holiday id (the holidays area's keys) */
  holidays(conditions: HolidayConditions, holidayId: (text: string) => number): NestedList<Holiday>;
}

const LIVE_SQL = Prisma.sql`"isDeleted" = false`;
/** A date column against yyyy-MM-dd, as the date it is (no time zone in between). */
const day = (date: Date): string => date.toISOString().slice(0, 10);
const BY_ID_THEN_LANGUAGE = [
  ['id', 'asc'],
  ['langCode', 'asc'],
] as const;

/**
 * The lists under each centre of a page (users, machines) and under each
 * holiday location (holidays), for `nestedConnection`: for every parent of
 * the request one window query and one grouped count (`windowList`), each
 * parent's page in the order of the same list asked for alone, with the
 * same conditions. The callers (CentreService) decide who reaches which
 * centre; a centre's devices are the devices area's (DeviceStore.atCentres).
 */
export function centreListsStorage(prisma: PrismaClient): CentreLists {
  return {
    users: (): NestedList<CentreUserRow> =>
      windowList<CentreUserRow>(
        prisma,
        { table: 'md_reg_center_user', parentColumn: 'regCenterId', where: [LIVE_SQL], orderBy: [['userId', 'asc']] },
        {
          after: (centreId, page) =>
            prisma.registrationCenterUser.findMany({
              where: { regCenterId: centreId, ...LIVE },
              orderBy: { userId: 'asc' },
              ...cursorAt(page, ([regCenterId, userId]) => ({ regCenterId_userId: { regCenterId, userId } })),
            }),
          key: (row) => pairKey(row.regCenterId, row.userId),
        },
      ),

    machines: (conditions: MachineConditions): NestedList<MachineRow> =>
      windowList<MachineRow>(
        prisma,
        {
          table: 'md_machine',
          parentColumn: 'regCenterId',
          where: [
            LIVE_SQL,
            Prisma.sql`"langCode" = ${conditions.langCode}`,
            conditions.zoneCode && Prisma.sql`"zoneCode" = ${conditions.zoneCode}`,
            conditions.name && containsLiteral(Prisma.sql`"name"`, conditions.name),
            conditions.isActive !== undefined && Prisma.sql`"isActive" = ${conditions.isActive}`,
          ],
          orderBy: BY_ID_THEN_LANGUAGE,
        },
        {
          after: (centreId, page) =>
            prisma.machine.findMany({
              where: {
                AND: [
                  LIVE,
                  { regCenterId: centreId, langCode: conditions.langCode },
                  conditions.zoneCode ? { zoneCode: conditions.zoneCode } : {},
                  conditions.name ? { name: { contains: likeLiteral(conditions.name), mode: 'insensitive' } } : {},
                  conditions.isActive !== undefined ? { isActive: conditions.isActive } : {},
                ],
              },
              orderBy: [{ id: 'asc' }, { langCode: 'asc' }],
              ...cursorAt(page, ([id, langCode]) => ({ id_langCode: { id, langCode } })),
            }),
          key: (row) => pairKey(row.id, row.langCode),
        },
      ),

    holidays: (conditions: HolidayConditions, holidayId: (text: string) => number): NestedList<Holiday> =>
      windowList<Holiday>(
        prisma,
        {
          table: 'md_holiday',
          parentColumn: 'locationCode',
          where: [
            LIVE_SQL,
            Prisma.sql`"langCode" = ${conditions.langCode}`,
            conditions.from && Prisma.sql`"holidayDate" >= ${day(conditions.from)}::date`,
            conditions.to && Prisma.sql`"holidayDate" <= ${day(conditions.to)}::date`,
            conditions.isActive !== undefined && Prisma.sql`"isActive" = ${conditions.isActive}`,
          ],
          orderBy: [['holidayDate', 'asc'], ...BY_ID_THEN_LANGUAGE],
        },
        {
          after: (locationCode, page) =>
            prisma.holiday.findMany({
              where: {
                ...LIVE,
                locationCode,
                langCode: conditions.langCode,
                ...(conditions.from || conditions.to
                  ? { holidayDate: { ...(conditions.from ? { gte: conditions.from } : {}), ...(conditions.to ? { lte: conditions.to } : {}) } }
                  : {}),
                ...(conditions.isActive !== undefined ? { isActive: conditions.isActive } : {}),
              },
              orderBy: [{ holidayDate: 'asc' }, { id: 'asc' }, { langCode: 'asc' }],
              ...cursorAt(page, ([id, langCode]) => ({ id_langCode: { id: holidayId(id), langCode } })),
            }),
          key: (row) => pairKey(String(row.id), row.langCode),
        },
      ),
  };
}
