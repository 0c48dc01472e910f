import { likeLiteral } from '../../lib/db/like.js';
import { masterdataErrors } from './errors.js';

/** MOSIP's search body (`request`): filters, sort, pagination, language. */
export interface SearchRequest {
  filters?: readonly SearchFilter[] | null;
  sort?: readonly SearchSort[] | null;
  pagination?: { pageStart?: number | null; pageFetch?: number | null } | null;
  languageCode?: string | null;
}

export interface SearchFilter {
  columnName: string;
  type: string;
  value?: string | null;
  fromValue?: string | null;
  toValue?: string | null;
}

/** The spec's names: `sortfield`, `sorttype` (ASC or DESC). */
export interface SearchSort {
  sortfield: string;
  sorttype?: string | null;
}

export type FilterType = 'contains' | 'equals' | 'startsWith' | 'between';

/** A searchable column: the request's columnName maps to a row field of a kind. */
export interface SearchColumn {
  field: string;
  kind: 'text' | 'boolean' | 'date' | 'number';
  /** the filter types it accepts; none: not filterable (sort only) */
  filters?: readonly FilterType[];
  sortable?: boolean;
}

export type SearchColumns = Readonly<Record<string, SearchColumn>>;

export interface SearchDefaults {
  sortfield: string;
  sorttype: 'ASC' | 'DESC';
}

/** Document 1: search pagination defaults to page 0 of 10. A page is bounded, and so is how far a search pages. */
export const DEFAULT_PAGE_FETCH = 10;
export const MAX_PAGE_FETCH = 100;
export const MAX_PAGE_START = 1_000_000;

// One escape for every component's LIKE filters (lib/db/like.ts); areas of master data import it from here.
export { likeLiteral };

/** The page an answer shows, MOSIP's PageResponseDto (records numbered from 0). */
export interface SearchPage<T> {
  data: T[];
  fromRecord: number;
  toRecord: number;
  totalRecord: number;
}

const FILTER_TYPES: Record<string, FilterType> = { contains: 'contains', equals: 'equals', startswith: 'startsWith', between: 'between' };

function columnOf(columns: SearchColumns, name: string): SearchColumn {
  // Column names match case-insensitively, as MOSIP's do.
  const entry = Object.entries(columns).find(([column]) => column.toLowerCase() === name.toLowerCase());
  if (!entry) throw masterdataErrors.badFilterColumn(name);
  return entry[1];
}

function valueOf(column: SearchColumn, text: string | null | undefined, what: string): unknown {
  if (text === null || text === undefined || text === '') throw masterdataErrors.badSearch(`${what} is required for ${column.field}`);
  switch (column.kind) {
    case 'boolean': {
      const lower = text.toLowerCase();
      if (['true', 'active', '1'].includes(lower)) return true;
      if (['false', 'inactive', '0'].includes(lower)) return false;
      throw masterdataErrors.badSearch(`${what} of ${column.field} must be true or false`);
    }
    case 'date': {
      const date = /^\d{4}-\d{2}-\d{2}$/.test(text) ? new Date(`${text}T00:00:00.000Z`) : new Date(text);
      if (Number.isNaN(date.getTime())) throw masterdataErrors.badSearch(`${what} of ${column.field} must be a date (yyyy-MM-dd)`);
      return date;
    }
    case 'number': {
      const number = Number(text);
      if (!Number.isFinite(number)) throw masterdataErrors.badSearch(`${what} of ${column.field} must be a number`);
      return number;
    }
    default:
      return text;
  }
}

/** One filter as a Prisma condition; text matches ignore case (a trigram index serves `contains`). */
function conditionOf(columns: SearchColumns, filter: SearchFilter): Record<string, unknown> {
  const column = columnOf(columns, filter.columnName);
  const type = FILTER_TYPES[(filter.type ?? '').toLowerCase()];
  if (!type || !column.filters?.includes(type)) throw masterdataErrors.badSearch(`filter type ${filter.type} is not supported for ${filter.columnName}`);
  if (type === 'between') {
    return { [column.field]: { gte: valueOf(column, filter.fromValue, 'fromValue'), lte: valueOf(column, filter.toValue, 'toValue') } };
  }
  const value = valueOf(column, filter.value, 'value');
  if (column.kind !== 'text') return { [column.field]: value };
  // every text match is LIKE / ILIKE (an insensitive equals too): the caller's text matches as written
  return { [column.field]: { [type]: likeLiteral(value as string), mode: 'insensitive' } };
}

/** Prisma's where, orderBy, skip and take for a search body; `key` fields end the order so pages never overlap. */
export function searchQuery(request: SearchRequest, columns: SearchColumns, defaults: SearchDefaults, key: readonly string[]) {
  const where = { AND: (request.filters ?? []).map((filter) => conditionOf(columns, filter)) };
  const sorts = request.sort?.length ? request.sort : [defaults];
  const orderBy: Record<string, 'asc' | 'desc'>[] = sorts.map((sort) => {
    const entry = Object.entries(columns).find(([name, column]) => name.toLowerCase() === sort.sortfield.toLowerCase() || column.field === sort.sortfield);
    if (!entry || entry[1].sortable === false) throw masterdataErrors.badSortColumn(sort.sortfield);
    const type = (sort.sorttype || defaults.sorttype).toUpperCase();
    if (type !== 'ASC' && type !== 'DESC') throw masterdataErrors.badSortType(String(sort.sorttype));
    return { [entry[1].field]: type === 'ASC' ? 'asc' : 'desc' };
  });
  for (const field of key) if (!orderBy.some((order) => field in order)) orderBy.push({ [field]: 'asc' });
  const pageStart = request.pagination?.pageStart ?? 0;
  const pageFetch = request.pagination?.pageFetch ?? DEFAULT_PAGE_FETCH;
  if (!Number.isInteger(pageStart) || !Number.isInteger(pageFetch) || pageStart < 0 || pageFetch < 1) throw masterdataErrors.badPagination();
  if (pageFetch > MAX_PAGE_FETCH) throw masterdataErrors.badSearch(`pageFetch is at most ${MAX_PAGE_FETCH}`);
  if (pageStart > MAX_PAGE_START) throw masterdataErrors.badSearch(`pageStart is at most ${MAX_PAGE_START}`);
  return { where, orderBy, skip: pageStart * pageFetch, take: pageFetch };
}

/** The rows a search selects: its scope and filters, each a condition on row fields (Prisma's where, as plain data). */
export type SearchWhere = { AND: unknown[] };

/** One page of a search as storage reads it: the rows, their order (row fields), the rows before it, and its size. */
export type SearchQuery = { where: SearchWhere; orderBy: Record<string, 'asc' | 'desc'>[]; skip: number; take: number };

/** Runs a search: the page and the total, in two indexed queries. */
export async function runSearch<T, W>(
  request: SearchRequest,
  columns: SearchColumns,
  defaults: SearchDefaults,
  key: readonly string[],
  scope: W,
  find: (args: SearchQuery) => Promise<T[]>,
  count: (where: SearchWhere) => Promise<number>,
): Promise<SearchPage<T>> {
  const query = searchQuery(request, columns, defaults, key);
  const where = { AND: [scope, ...query.where.AND] };
  const [data, totalRecord] = await Promise.all([find({ ...query, where }), count(where)]);
  return { data, fromRecord: query.skip, toRecord: query.skip + data.length, totalRecord };
}

/** MOSIP's filter-values body: the distinct (`unique`) or all values of columns, optionally narrowed. */
export interface FilterValuesRequest {
  filters: readonly { columnName: string; type?: string | null; text?: string | null }[];
  languageCode?: string | null;
  optionalFilters?: readonly SearchFilter[] | null;
}

export interface FilterValue {
  fieldID: string;
  /** the same column under the graph's name */
  fieldId: string;
  fieldValue: string;
  fieldCode?: string | null;
}

/** At most this many values per column: a filter list for a portal's drop-down, not an export. */
export const MAX_FILTER_VALUES = 1000;

/**
 * The values of each requested column. `find(where, field, distinct)` reads
 * the column; `text` narrows to values containing it; optional filters
 * narrow the rows as a search's filters do.
 */
export async function filterValues(
  request: FilterValuesRequest,
  columns: SearchColumns,
  scope: object,
  find: (where: object, field: string, distinct: boolean, take: number) => Promise<unknown[]>,
): Promise<{ filters: FilterValue[] }> {
  const optional = (request.optionalFilters ?? []).map((filter) => conditionOf(columns, filter));
  const filters: FilterValue[] = [];
  for (const requested of request.filters) {
    const column = columnOf(columns, requested.columnName);
    const type = (requested.type ?? 'unique').toLowerCase();
    if (type !== 'unique' && type !== 'all') throw masterdataErrors.badSearch(`filter type ${requested.type} is not unique or all`);
    const narrowed = requested.text
      ? [
          column.kind === 'text'
            ? { [column.field]: { contains: likeLiteral(requested.text), mode: 'insensitive' } }
            : { [column.field]: valueOf(column, requested.text, 'text') },
        ]
      : [];
    const values = await find({ AND: [scope, ...optional, ...narrowed] }, column.field, type === 'unique', MAX_FILTER_VALUES);
    for (const value of values) {
      const fieldValue = value instanceof Date ? value.toISOString().slice(0, 10) : String(value);
      filters.push({ fieldID: requested.columnName, fieldId: requested.columnName, fieldValue });
    }
  }
  return { filters };
}
