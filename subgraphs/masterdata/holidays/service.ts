import type { Connection, PageArgs } from '../../../lib/graph/connection.js';
import type { EventBus } from '../../../lib/events.js';
import type { Clock } from '../../../lib/time.js';
import { created, deleted, LIVE, updated } from '../audit.js';
import { masterdataErrors } from '../errors.js';
import { pairKey, parsePair } from '../keys.js';
import { paged, wholeList, type Paged, type PagedArgs } from '../paged.js';
import { filterValues, runSearch, type FilterValuesRequest, type SearchColumns, type SearchPage, type SearchRequest } from '../search.js';
import type { LocationService } from './locations-service.js';
import { dateOf, holidayDates, holidayIdOf, type HolidayFilter, type HolidayRow } from './rows.js';
import type { HolidayStore } from './storage.js';

// The rows and their plain rules, where other code has always found them (centres, REST, the graph's mappers).
export { dayOf, holidayDates, holidayIdOf, type HolidayFilter, type HolidayRow } from './rows.js';

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

/** A search's or filter list's rows: live ones, of the request's language unless it asks for all. */
const scopeOf = (languageCode?: string | null) => ({ ...LIVE, ...(languageCode && languageCode !== 'all' ? { langCode: languageCode } : {}) });

/**
 * Holidays of locations, one row per language sharing the holiday's id. The
 * location must exist (KER-MSD-026); (location, date, name, language) is
 * unique, which the database enforces so that racing inserts cannot both win.
 */
export class HolidayService {
  constructor(
    private readonly store: HolidayStore,
    private readonly clock: Clock,
    private readonly locations: Pick<LocationService, 'mustExist'>,
    /** where a holiday in force is announced (`holiday.saved`): what is planned on its day hears of it */
    private readonly events?: Pick<EventBus, 'publish'>,
  ) {}

  async create(by: string, input: HolidayInput): Promise<HolidayRow> {
    const holidayDate = dateOf(input.holidayDate, masterdataErrors.holidayInsert);
    await this.locations.mustExist(input.locationCode);
    const key = { locationCode: input.locationCode, holidayDate, holidayName: input.holidayName, langCode: input.langCode };
    const values = { ...key, holidayDesc: input.holidayDesc, isActive: input.isActive };
    // A translation joins the id of the holiday it translates (given, or the same location and date in another language).
    const sibling = input.id ? await this.store.anyOfId(input.id) : await this.store.translationOf(input.locationCode, holidayDate, input.langCode);
    if (input.id && !sibling) throw masterdataErrors.holidayNotFound();
    const row =
      (await this.store.revive(key, { ...values, ...created(by, this.clock.now()), updatedBy: null, updatedAt: null })) ??
      (await this.store.insert({ ...values, ...(sibling ? { id: sibling.id } : {}), ...created(by, this.clock.now()) }));
    if (!row) throw masterdataErrors.holidayInsert(`${input.holidayName} on ${input.holidayDate} at ${input.locationCode} (${input.langCode}) already exists`);
    await this.announce(row);
    return row;
  }

  /** A holiday in force, once written: what is planned on its day hears of it. */
  private async announce(row: HolidayRow): Promise<void> {
    if (row.isActive) await this.events?.publish('holiday.saved', { locationCode: row.locationCode, holidayDate: row.holidayDate.toISOString().slice(0, 10) });
  }

  async update(by: string, input: HolidayUpdate): Promise<HolidayRow> {
    const holidayDate = dateOf(input.holidayDate, masterdataErrors.holidayUpdate);
    const newDate = dateOf(input.newHolidayDate, masterdataErrors.holidayUpdate);
    await this.locations.mustExist(input.locationCode);
    const count = await this.store.change(
      input.id,
      { langCode: input.langCode, locationCode: input.locationCode, holidayDate, holidayName: input.holidayName },
      {
        holidayName: input.newHolidayName,
        holidayDate: newDate,
        holidayDesc: input.newHolidayDesc,
        isActive: input.isActive,
        ...updated(by, this.clock.now()),
      },
    );
    if (count === null) throw masterdataErrors.holidayUpdate(`${input.newHolidayName} on ${input.newHolidayDate} already exists there`);
    if (count === 0) throw masterdataErrors.holidayNotFound();
    const row = await this.store.rowOf(input.id, input.langCode);
    await this.announce(row);
    return row;
  }

  /** Deletes (softly) the holiday in every language. */
  async delete(by: string, key: HolidayKey): Promise<HolidayKey> {
    const holidayDate = dateOf(key.holidayDate, masterdataErrors.holidayDelete);
    const count = await this.store.remove({ locationCode: key.locationCode, holidayDate, holidayName: key.holidayName }, deleted(by, this.clock.now()));
    if (count === 0) throw masterdataErrors.holidayNotFound();
    return key;
  }

  /** Every holiday, whole (at most LIST_LIMIT: refused beyond). */
  all(): Promise<HolidayRow[]> {
    return wholeList('holidays', 'holidays', (take) => this.store.all(take));
  }

  /** A holiday in each of its languages (one row per language; at most LIST_LIMIT, refused beyond). */
  async byId(id: number, langCode?: string | null): Promise<HolidayRow[]> {
    const rows = await wholeList('holiday rows', 'holidays', (take) => this.store.ofId(id, langCode, take));
    if (!rows.length) throw masterdataErrors.holidayNotFound();
    return rows;
  }

  paged(args: PagedArgs): Promise<Paged<HolidayRow>> {
    return paged(
      args,
      SORTABLE,
      ['id', 'langCode'],
      (query) => this.store.page(query),
      () => this.store.countLive(),
    );
  }

  /** Document 2's search: default sort modifiedDate ASC, page 0 of 10; the language scopes it. */
  search(request: SearchRequest): Promise<SearchPage<HolidayRow>> {
    return runSearch(
      request,
      SEARCH_COLUMNS,
      { sortfield: 'modifiedDate', sorttype: 'ASC' },
      ['id', 'langCode'],
      scopeOf(request.languageCode),
      (query) => this.store.search(query),
      (where) => this.store.countSearch(where),
    );
  }

  filterValues(request: FilterValuesRequest) {
    return filterValues(request, SEARCH_COLUMNS, scopeOf(request.languageCode), (where, field, distinct, take) =>
      this.store.columnValues(where, field, distinct, take),
    );
  }

  list(page: PageArgs, filter?: HolidayFilter | null): Promise<Connection<HolidayRow>> {
    const { from, to } = holidayDates(filter);
    return this.store.list(
      {
        langCode: filter?.langCode,
        locationCode: filter?.locationCode,
        isActive: filter?.isActive,
        ...(from ? { from } : {}),
        ...(to ? { to } : {}),
      },
      page,
    );
  }

  async byKeys(keys: readonly string[]): Promise<Map<string, HolidayRow>> {
    const rows = await this.store.byKeys(keys.map(parsePair).map(([id, langCode]) => [holidayIdOf(id), langCode] as const));
    return new Map(rows.map((row) => [pairKey(String(row.id), row.langCode), row]));
  }
}
