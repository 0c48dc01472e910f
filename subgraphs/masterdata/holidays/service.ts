import { Prisma, type Holiday as HolidayRow, type PrismaClient } from '../../../generated/prisma/client.js';
import { connection, type Connection, type PageArgs } from '../../../lib/graph/connection.js';
import { PlatformError } from '../../../lib/errors.js';
import type { Clock } from '../../../lib/time.js';
import { created, deleted, LIVE, updated } from '../audit.js';
import { masterdataErrors } from '../errors.js';
import { cursorAt, pairKey, parsePair } from '../keys.js';
import { isUniqueViolation } from '../../../lib/db/unique.js';
import { paged, wholeList, type Paged, type PagedArgs } from '../paged.js';
import { filterValues, runSearch, type FilterValuesRequest, type SearchColumns, type SearchPage, type SearchRequest } from '../search.js';
import type { LocationService } from './locations-service.js';

export type { HolidayRow };

export interface HolidayInput {
  id?: number | null;
  locationCode: string;
  holidayDate: string;
  holidayName: string;
  holidayDesc: string;
  langCode: string;
  isActive: boolean;
}

export interface HolidayUpdate extends HolidayInput {
  id: number;
  newHolidayName: string;
  newHolidayDate: string;
  newHolidayDesc: string;
}

export interface HolidayKey {
  holidayDate: string;
  holidayName: string;
  locationCode: string;
}

export interface HolidayFilter {
  langCode?: string | null;
  locationCode?: string | null;
  from?: string | null;
  to?: string | null;
  isActive?: boolean | null;
}

/** Document 2's search columns, and the row fields MOSIP's DTO names sort by. */
const SEARCH_COLUMNS: SearchColumns = {
  holidayName: { field: 'holidayName', kind: 'text', filters: ['contains', 'equals', 'startsWith'] },
  name: { field: 'holidayName', kind: 'text', filters: ['contains', 'equals', 'startsWith'] },
  holidayDate: { field: 'holidayDate', kind: 'date', filters: ['between', 'equals'] },
  isActive: { field: 'isActive', kind: 'boolean', filters: ['equals'] },
  locationCode: { field: 'locationCode', kind: 'text', filters: ['equals'] },
  holidayDesc: { field: 'holidayDesc', kind: 'text', filters: ['contains', 'equals', 'startsWith'] },
  modifiedDate: { field: 'updatedAt', kind: 'date' },
  updatedDateTime: { field: 'updatedAt', kind: 'date' },
  createdDateTime: { field: 'createdAt', kind: 'date' },
};

const SORTABLE = {
  createdDateTime: 'createdAt',
  updatedDateTime: 'updatedAt',
  holidayDate: 'holidayDate',
  holidayName: 'holidayName',
  name: 'holidayName',
  id: 'id',
  holidayId: 'id',
  locationCode: 'locationCode',
};

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** A holiday id from a cursor or reference: a positive whole number, else the key is not one of this list. */
export function holidayIdOf(text: string): number {
  const id = Number(text);
  if (!Number.isSafeInteger(id) || id < 1) throw new PlatformError('BAD_USER_INPUT', 'not a holiday key');
  return id;
}

/** A holiday's date: yyyy-MM-dd, a real day. */
function dateOf(text: string, error: (why: string) => Error): Date {
  const date = new Date(`${text}T00:00:00.000Z`);
  if (!DATE.test(text) || Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== text) throw error(`${text} is not a date (yyyy-MM-dd)`);
  return date;
}

/** A day as REST sends it, checked as the holiday writes check it (their error when it is not yyyy-MM-dd): the graph's Date. */
export function dayOf(text: string, error: (why: string) => Error): string {
  dateOf(text, error);
  return text;
}

/** A holiday list's dates, from and to included: yyyy-MM-dd, real days (KER-MSD-019 otherwise). */
export function holidayDates(filter?: Pick<HolidayFilter, 'from' | 'to'> | null): { from?: Date; to?: Date } {
  return {
    ...(filter?.from ? { from: dateOf(filter.from, masterdataErrors.holidayFetch) } : {}),
    ...(filter?.to ? { to: dateOf(filter.to, masterdataErrors.holidayFetch) } : {}),
  };
}

/**
 * Holidays of locations, one row per language sharing the holiday's id. The
 * location must exist (KER-MSD-026); (location, date, name, language) is
 * unique, which the database enforces so that racing inserts cannot both win.
 */
export class HolidayService {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly clock: Clock,
    private readonly locations: LocationService,
  ) {}

  async create(by: string, input: HolidayInput): Promise<HolidayRow> {
    const holidayDate = dateOf(input.holidayDate, masterdataErrors.holidayInsert);
    await this.locations.mustExist(input.locationCode);
    const data = {
      locationCode: input.locationCode,
      holidayDate,
      holidayName: input.holidayName,
      holidayDesc: input.holidayDesc,
      langCode: input.langCode,
      isActive: input.isActive,
    };
    try {
      // A translation joins the id of the holiday it translates (given, or the same location and date in another language).
      const sibling = input.id
        ? await this.prisma.holiday.findFirst({ where: { id: input.id } })
        : await this.prisma.holiday.findFirst({ where: { locationCode: input.locationCode, holidayDate, langCode: { not: input.langCode }, ...LIVE } });
      if (input.id && !sibling) throw masterdataErrors.holidayNotFound();
      const revived = await this.prisma.holiday.updateMany({
        where: { locationCode: input.locationCode, holidayDate, holidayName: input.holidayName, langCode: input.langCode, isDeleted: true },
        data: { ...data, ...created(by, this.clock.now()), updatedBy: null, updatedAt: null },
      });
      if (revived.count)
        return await this.prisma.holiday.findFirstOrThrow({
          where: { locationCode: input.locationCode, holidayDate, holidayName: input.holidayName, langCode: input.langCode },
        });
      return await this.prisma.holiday.create({ data: { ...data, ...(sibling ? { id: sibling.id } : {}), ...created(by, this.clock.now()) } });
    } catch (error) {
      if (isUniqueViolation(error))
        throw masterdataErrors.holidayInsert(`${input.holidayName} on ${input.holidayDate} at ${input.locationCode} (${input.langCode}) already exists`);
      throw error;
    }
  }

  async update(by: string, input: HolidayUpdate): Promise<HolidayRow> {
    const holidayDate = dateOf(input.holidayDate, masterdataErrors.holidayUpdate);
    const newDate = dateOf(input.newHolidayDate, masterdataErrors.holidayUpdate);
    await this.locations.mustExist(input.locationCode);
    try {
      const { count } = await this.prisma.holiday.updateMany({
        where: { id: input.id, langCode: input.langCode, locationCode: input.locationCode, holidayDate, holidayName: input.holidayName, ...LIVE },
        data: {
          holidayName: input.newHolidayName,
          holidayDate: newDate,
          holidayDesc: input.newHolidayDesc,
          isActive: input.isActive,
          ...updated(by, this.clock.now()),
        },
      });
      if (count === 0) throw masterdataErrors.holidayNotFound();
    } catch (error) {
      if (isUniqueViolation(error)) throw masterdataErrors.holidayUpdate(`${input.newHolidayName} on ${input.newHolidayDate} already exists there`);
      throw error;
    }
    return this.prisma.holiday.findUniqueOrThrow({ where: { id_langCode: { id: input.id, langCode: input.langCode } } });
  }

  /** Deletes (softly) the holiday in every language. */
  async delete(by: string, key: HolidayKey): Promise<HolidayKey> {
    const holidayDate = dateOf(key.holidayDate, masterdataErrors.holidayDelete);
    const { count } = await this.prisma.holiday.updateMany({
      where: { locationCode: key.locationCode, holidayDate, holidayName: key.holidayName, ...LIVE },
      data: deleted(by, this.clock.now()),
    });
    if (count === 0) throw masterdataErrors.holidayNotFound();
    return key;
  }

  /** Every holiday, whole (at most LIST_LIMIT: refused beyond). */
  all(): Promise<HolidayRow[]> {
    return wholeList('holidays', 'holidays', (take) =>
      this.prisma.holiday.findMany({ where: LIVE, orderBy: [{ holidayDate: 'asc' }, { id: 'asc' }, { langCode: 'asc' }], take }),
    );
  }

  /** A holiday in each of its languages (one row per language; at most LIST_LIMIT, refused beyond). */
  async byId(id: number, langCode?: string | null): Promise<HolidayRow[]> {
    const rows = await wholeList('holiday rows', 'holidays', (take) =>
      this.prisma.holiday.findMany({ where: { id, ...(langCode ? { langCode } : {}), ...LIVE }, orderBy: { langCode: 'asc' }, take }),
    );
    if (!rows.length) throw masterdataErrors.holidayNotFound();
    return rows;
  }

  paged(args: PagedArgs): Promise<Paged<HolidayRow>> {
    return paged(
      args,
      SORTABLE,
      ['id', 'langCode'],
      (query) => this.prisma.holiday.findMany({ where: LIVE, ...query }),
      () => this.prisma.holiday.count({ where: LIVE }),
    );
  }

  /** Document 2's search: default sort modifiedDate ASC, page 0 of 10; the language scopes it. */
  search(request: SearchRequest): Promise<SearchPage<HolidayRow>> {
    return runSearch(
      request,
      SEARCH_COLUMNS,
      { sortfield: 'modifiedDate', sorttype: 'ASC' },
      ['id', 'langCode'],
      { ...LIVE, ...(request.languageCode && request.languageCode !== 'all' ? { langCode: request.languageCode } : {}) },
      (query) => this.prisma.holiday.findMany(query as Prisma.HolidayFindManyArgs),
      (where) => this.prisma.holiday.count({ where: where as Prisma.HolidayWhereInput }),
    );
  }

  filterValues(request: FilterValuesRequest) {
    return filterValues(
      request,
      SEARCH_COLUMNS,
      { ...LIVE, ...(request.languageCode && request.languageCode !== 'all' ? { langCode: request.languageCode } : {}) },
      async (where, field, distinct, take) => {
        const rows = await this.prisma.holiday.findMany({
          where: where,
          select: { [field]: true },
          ...(distinct ? { distinct: [field as Prisma.HolidayScalarFieldEnum] } : {}),
          orderBy: { [field]: 'asc' },
          take,
        });
        return rows.map((row) => (row as Record<string, unknown>)[field]);
      },
    );
  }

  list(page: PageArgs, filter?: HolidayFilter | null): Promise<Connection<HolidayRow>> {
    const { from, to } = holidayDates(filter);
    const where: Prisma.HolidayWhereInput = {
      ...LIVE,
      ...(filter?.langCode ? { langCode: filter.langCode } : {}),
      ...(filter?.locationCode ? { locationCode: filter.locationCode } : {}),
      ...(filter?.isActive !== null && filter?.isActive !== undefined ? { isActive: filter.isActive } : {}),
      ...(from || to ? { holidayDate: { ...(from ? { gte: from } : {}), ...(to ? { lte: to } : {}) } } : {}),
    };
    return connection(
      page,
      (row) => pairKey(String(row.id), row.langCode),
      (query) =>
        this.prisma.holiday.findMany({
          where,
          ...cursorAt(query, ([id, langCode]) => ({ id_langCode: { id: holidayIdOf(id), langCode } })),
          orderBy: [{ holidayDate: 'asc' }, { id: 'asc' }, { langCode: 'asc' }],
        }),
      () => this.prisma.holiday.count({ where }),
    );
  }

  async byKeys(keys: readonly string[]): Promise<Map<string, HolidayRow>> {
    const rows = await this.prisma.holiday.findMany({
      where: { OR: keys.map(parsePair).map(([id, langCode]) => ({ id: holidayIdOf(id), langCode })), ...LIVE },
    });
    return new Map(rows.map((row) => [pairKey(String(row.id), row.langCode), row]));
  }
}
