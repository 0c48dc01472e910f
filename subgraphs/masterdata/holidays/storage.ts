import type { Prisma, PrismaClient } from '../../../generated/prisma/client.js';
import { connection, type Connection, type PageArgs } from '../../../lib/graph/connection.js';
import { LIVE, type Created, type Deleted, type Updated } from '../audit.js';
import { cursorAt, pairKey } from '../keys.js';
import type { PagedQuery } from '../paged.js';
import type { SearchQuery, SearchWhere } from '../search.js';
import { unlessTaken } from '../../../lib/db/unique.js';
import { holidayIdOf, type HolidayRow, type LocationRow } from './rows.js';

/** A holiday row's unique key: its location, date, name and language. */
export interface HolidayRowKey {
  locationCode: string;
  holidayDate: Date;
  holidayName: string;
  langCode: string;
}

/** What a new or revived holiday row holds besides its audit columns. */
export interface HolidayValues extends HolidayRowKey {
  holidayDesc: string;
  isActive: boolean;
}

/** What an update of a holiday row changes. */
export interface HolidayChanges {
  holidayName: string;
  holidayDate: Date;
  holidayDesc: string;
  isActive: boolean;
}

/** Which holidays a list shows: the filter's fields, its dates read. */
export interface HolidayConditions {
  langCode?: string | null;
  locationCode?: string | null;
  isActive?: boolean | null;
  from?: Date;
  to?: Date;
}

/** The holidays' table as the rules see it: the seam a test fills with rows in memory. */
export interface HolidayStore {
  /** a row of the id, in any language, live or deleted */
  anyOfId(id: number): Promise<HolidayRow | null>;
  /** a live row of the location and date in a language other than `langCode`: the holiday a new translation joins */
  translationOf(locationCode: string, holidayDate: Date, langCode: string): Promise<HolidayRow | null>;
  /** brings back the deleted row of the key with these values: the row, or null when no deleted row has the key */
  revive(key: HolidayRowKey, values: HolidayValues & Created & { updatedBy: null; updatedAt: null }): Promise<HolidayRow | null>;
  /** a new row, of the id given or the next one: null when its key, or its id in its language, is taken */
  insert(row: HolidayValues & Created & { id?: number }): Promise<HolidayRow | null>;
  /** changes the live row of the id that still has `match`'s key: how many rows changed (0 or 1); null when the new name and date are taken there */
  change(id: number, match: HolidayRowKey, changes: HolidayChanges & Updated): Promise<number | null>;
  /** the row of an id in a language, which exists */
  rowOf(id: number, langCode: string): Promise<HolidayRow>;
  /** soft-deletes the live rows of a location, date and name, in every language: how many */
  remove(key: Omit<HolidayRowKey, 'langCode'>, stamp: Deleted): Promise<number>;
  /** the first `take` live holidays by date, id and language */
  all(take: number): Promise<HolidayRow[]>;
  /** the first `take` live rows of an id (in one language when given), by language */
  ofId(id: number, langCode: string | null | undefined, take: number): Promise<HolidayRow[]>;
  /** one page of the live holidays */
  page(query: PagedQuery): Promise<HolidayRow[]>;
  countLive(): Promise<number>;
  /** one page of a search */
  search(query: SearchQuery): Promise<HolidayRow[]>;
  countSearch(where: SearchWhere): Promise<number>;
  /** the first `take` values of a column (distinct ones when asked) of the rows `where` selects, in order */
  columnValues(where: object, field: string, distinct: boolean, take: number): Promise<unknown[]>;
  /** the portal's list: by date, id and language */
  list(conditions: HolidayConditions, page: PageArgs): Promise<Connection<HolidayRow>>;
  /** live rows of these (id, language) keys */
  byKeys(keys: readonly (readonly [number, string])[]): Promise<HolidayRow[]>;
}

/** What a new or revived location row holds besides its key and audit columns. */
export interface LocationValues {
  name: string;
  hierarchyLevel: number;
  hierarchyName: string;
  parentCode: string | null;
  isActive: boolean;
}

export interface LocationConditions {
  langCode?: string | null;
  hierarchyLevel?: number | null;
  parentCode?: string | null;
}

/** The locations' table as the rules see it: the seam a test fills with rows in memory. */
export interface LocationStore {
  /** a live row of the code, in any language */
  anyLive(code: string): Promise<LocationRow | null>;
  /** whether the code has a live row, in any language */
  exists(code: string): Promise<boolean>;
  /** the row of a code in a language, live or deleted */
  rowOf(code: string, langCode: string): Promise<LocationRow | null>;
  /** writes the row of a code in a language: a new one, or over a deleted one */
  save(code: string, langCode: string, values: LocationValues & Created): Promise<LocationRow>;
  /** the live row of a code in a language */
  liveRow(code: string, langCode: string): Promise<LocationRow | null>;
  /** the first `take` live locations of a language, by level and code */
  ofLanguage(langCode: string, take: number): Promise<LocationRow[]>;
  /** the first `take` live children of a location in a language, by code */
  children(code: string, langCode: string, take: number): Promise<LocationRow[]>;
  /** the portal's list: by code and language */
  list(conditions: LocationConditions, page: PageArgs): Promise<Connection<LocationRow>>;
  /** live rows of these (code, language) keys */
  byKeys(keys: readonly (readonly [string, string])[]): Promise<LocationRow[]>;
}

const BY_DATE: Prisma.HolidayOrderByWithRelationInput[] = [{ holidayDate: 'asc' }, { id: 'asc' }, { langCode: 'asc' }];

/** The holidays' table (md_holiday): the only code that touches it. */
export class HolidayStorage implements HolidayStore {
  constructor(private readonly prisma: PrismaClient) {}

  anyOfId(id: number): Promise<HolidayRow | null> {
    return this.prisma.holiday.findFirst({ where: { id } });
  }

  translationOf(locationCode: string, holidayDate: Date, langCode: string): Promise<HolidayRow | null> {
    return this.prisma.holiday.findFirst({ where: { locationCode, holidayDate, langCode: { not: langCode }, ...LIVE } });
  }

  async revive(key: HolidayRowKey, values: HolidayValues & Created & { updatedBy: null; updatedAt: null }): Promise<HolidayRow | null> {
    const revived = await this.prisma.holiday.updateMany({ where: { ...key, isDeleted: true }, data: values });
    return revived.count ? this.prisma.holiday.findFirstOrThrow({ where: key }) : null;
  }

  insert(row: HolidayValues & Created & { id?: number }): Promise<HolidayRow | null> {
    return unlessTaken(this.prisma.holiday.create({ data: row }));
  }

  async change(id: number, match: HolidayRowKey, changes: HolidayChanges & Updated): Promise<number | null> {
    const changed = await unlessTaken(this.prisma.holiday.updateMany({ where: { id, ...match, ...LIVE }, data: changes }));
    return changed && changed.count;
  }

  rowOf(id: number, langCode: string): Promise<HolidayRow> {
    return this.prisma.holiday.findUniqueOrThrow({ where: { id_langCode: { id, langCode } } });
  }

  async remove(key: Omit<HolidayRowKey, 'langCode'>, stamp: Deleted): Promise<number> {
    return (await this.prisma.holiday.updateMany({ where: { ...key, ...LIVE }, data: stamp })).count;
  }

  all(take: number): Promise<HolidayRow[]> {
    return this.prisma.holiday.findMany({ where: LIVE, orderBy: BY_DATE, take });
  }

  ofId(id: number, langCode: string | null | undefined, take: number): Promise<HolidayRow[]> {
    return this.prisma.holiday.findMany({ where: { id, ...(langCode ? { langCode } : {}), ...LIVE }, orderBy: { langCode: 'asc' }, take });
  }

  page(query: PagedQuery): Promise<HolidayRow[]> {
    return this.prisma.holiday.findMany({ where: LIVE, ...query });
  }

  countLive(): Promise<number> {
    return this.prisma.holiday.count({ where: LIVE });
  }

  search(query: SearchQuery): Promise<HolidayRow[]> {
    return this.prisma.holiday.findMany(query as Prisma.HolidayFindManyArgs);
  }

  countSearch(where: SearchWhere): Promise<number> {
    return this.prisma.holiday.count({ where: where as Prisma.HolidayWhereInput });
  }

  async columnValues(where: object, field: string, distinct: boolean, take: number): Promise<unknown[]> {
    const rows = await this.prisma.holiday.findMany({
      where,
      select: { [field]: true },
      ...(distinct ? { distinct: [field as Prisma.HolidayScalarFieldEnum] } : {}),
      orderBy: { [field]: 'asc' },
      take,
    });
    return rows.map((row) => (row as Record<string, unknown>)[field]);
  }

  list(conditions: HolidayConditions, page: PageArgs): Promise<Connection<HolidayRow>> {
    const { from, to } = conditions;
    const where: Prisma.HolidayWhereInput = {
      ...LIVE,
      ...(conditions.langCode ? { langCode: conditions.langCode } : {}),
      ...(conditions.locationCode ? { locationCode: conditions.locationCode } : {}),
      ...(conditions.isActive !== null && conditions.isActive !== undefined ? { isActive: conditions.isActive } : {}),
      ...(from || to ? { holidayDate: { ...(from ? { gte: from } : {}), ...(to ? { lte: to } : {}) } } : {}),
    };
    return connection(
      page,
      (row) => pairKey(String(row.id), row.langCode),
      (query) =>
        this.prisma.holiday.findMany({
          where,
          ...cursorAt(query, ([id, langCode]) => ({ id_langCode: { id: holidayIdOf(id), langCode } })),
          orderBy: BY_DATE,
        }),
      () => this.prisma.holiday.count({ where }),
    );
  }

  byKeys(keys: readonly (readonly [number, string])[]): Promise<HolidayRow[]> {
    return this.prisma.holiday.findMany({ where: { OR: keys.map(([id, langCode]) => ({ id, langCode })), ...LIVE } });
  }
}

/** The locations' table (md_location): the only code that touches it. */
export class LocationStorage implements LocationStore {
  constructor(private readonly prisma: PrismaClient) {}

  anyLive(code: string): Promise<LocationRow | null> {
    return this.prisma.location.findFirst({ where: { code, ...LIVE } });
  }

  async exists(code: string): Promise<boolean> {
    return (await this.prisma.location.findFirst({ where: { code, ...LIVE }, select: { code: true } })) !== null;
  }

  rowOf(code: string, langCode: string): Promise<LocationRow | null> {
    return this.prisma.location.findUnique({ where: { code_langCode: { code, langCode } } });
  }

  save(code: string, langCode: string, values: LocationValues & Created): Promise<LocationRow> {
    return this.prisma.location.upsert({ where: { code_langCode: { code, langCode } }, create: { code, langCode, ...values }, update: values });
  }

  liveRow(code: string, langCode: string): Promise<LocationRow | null> {
    return this.prisma.location.findFirst({ where: { code, langCode, ...LIVE } });
  }

  ofLanguage(langCode: string, take: number): Promise<LocationRow[]> {
    return this.prisma.location.findMany({ where: { langCode, ...LIVE }, orderBy: [{ hierarchyLevel: 'asc' }, { code: 'asc' }], take });
  }

  children(code: string, langCode: string, take: number): Promise<LocationRow[]> {
    return this.prisma.location.findMany({ where: { parentCode: code, langCode, ...LIVE }, orderBy: { code: 'asc' }, take });
  }

  list(conditions: LocationConditions, page: PageArgs): Promise<Connection<LocationRow>> {
    const where = {
      ...LIVE,
      ...(conditions.langCode ? { langCode: conditions.langCode } : {}),
      ...(conditions.hierarchyLevel !== null && conditions.hierarchyLevel !== undefined ? { hierarchyLevel: conditions.hierarchyLevel } : {}),
      ...(conditions.parentCode ? { parentCode: conditions.parentCode } : {}),
    };
    return connection(
      page,
      (row) => pairKey(row.code, row.langCode),
      (query) =>
        this.prisma.location.findMany({
          where,
          ...cursorAt(query, ([code, langCode]) => ({ code_langCode: { code, langCode } })),
          orderBy: [{ code: 'asc' }, { langCode: 'asc' }],
        }),
      () => this.prisma.location.count({ where }),
    );
  }

  byKeys(keys: readonly (readonly [string, string])[]): Promise<LocationRow[]> {
    return this.prisma.location.findMany({ where: { OR: keys.map(([code, langCode]) => ({ code, langCode })), ...LIVE } });
  }
}
