import type { PlatformError } from '../../../lib/errors.js';
import type { Connection, PageArgs } from '../../../lib/graph/connection.js';
import { LIVE, created, deleted, updated } from '../audit.js';
import { filterValues, runSearch, type FilterValuesRequest, type SearchColumns, type SearchPage, type SearchRequest } from '../search.js';
import type { CodedFilter, CodedOrder, CodedRow, CodedStore } from './storage/coded.js';

export type { CodedFilter, CodedOrder, CodedRow, OrderField } from './storage/coded.js';

export interface DocumentFields {
  code: string;
  langCode: string;
  name: string;
  description?: string | null;
  isActive: boolean;
}

/** What differs between categories and types: the table, the codes, and what depends on a code. */
export interface CodedKind {
  store: CodedStore;
  notFound: (code?: string) => PlatformError;
  duplicate: (why: string) => PlatformError;
  dependency: (code: string) => PlatformError;
  /** whether a live mapping still uses the code (a delete is refused then) */
  inUse: (code: string) => Promise<boolean>;
}

const KEY = ['code', 'langCode'] as const;
const TEXT_FILTERS = ['contains', 'equals', 'startsWith'] as const;

/** MOSIP's search columns (the spec's Name and Status included), by request name; names match ignoring case. */
export const CODED_COLUMNS: SearchColumns = {
  code: { field: 'code', kind: 'text', filters: TEXT_FILTERS },
  name: { field: 'name', kind: 'text', filters: TEXT_FILTERS },
  description: { field: 'description', kind: 'text', filters: TEXT_FILTERS },
  langCode: { field: 'langCode', kind: 'text', filters: ['equals'] },
  isActive: { field: 'isActive', kind: 'boolean', filters: ['equals'] },
  status: { field: 'isActive', kind: 'boolean', filters: TEXT_FILTERS },
  createdDateTime: { field: 'createdAt', kind: 'date', filters: ['between'] },
  updatedDateTime: { field: 'updatedAt', kind: 'date', filters: ['between'] },
};

/** A search's or filter list's rows: live ones, of the request's language when it names one. */
const scopeOf = (languageCode?: string | null) => ({ ...LIVE, ...(languageCode ? { langCode: languageCode } : {}) });

/** Create, update, soft delete and read rows keyed by (code, langCode). */
export class CodedRows {
  constructor(private readonly kind: CodedKind) {}

  private get store() {
    return this.kind.store;
  }

  /**
   * A new row, or the revival of a soft-deleted one. Two creates racing for
   * one key: the database's key lets one in, the other gets the duplicate code.
   */
  async create(fields: DocumentFields, by: string, now: Date): Promise<CodedRow> {
    const values = { name: fields.name, description: fields.description ?? null, isActive: fields.isActive };
    const key = { code: fields.code, langCode: fields.langCode };
    const row = await this.store.insert({ ...key, ...values, updatedBy: null, updatedAt: null, ...created(by, now) });
    if (row) return row;
    const revived = await this.store.revive(key, { ...values, ...created(by, now), updatedBy: null, updatedAt: null });
    if (revived === 0) throw this.kind.duplicate(`${fields.code} already exists in ${fields.langCode}`);
    return (await this.store.rowOf(key))!;
  }

  async update(fields: DocumentFields, by: string, now: Date): Promise<CodedRow> {
    const key = { code: fields.code, langCode: fields.langCode };
    const changed = await this.store.change(key, {
      name: fields.name,
      description: fields.description ?? null,
      isActive: fields.isActive,
      ...updated(by, now),
    });
    if (changed === 0) throw this.kind.notFound(`${fields.code} in ${fields.langCode}`);
    return (await this.store.rowOf(key))!;
  }

  /** Soft-deletes the code in every language, unless a live mapping uses it. */
  async remove(code: string, by: string, now: Date): Promise<string> {
    if (!(await this.store.liveRow(code))) throw this.kind.notFound(code);
    if (await this.kind.inUse(code)) throw this.kind.dependency(code);
    const removed = await this.store.remove(code, deleted(by, now));
    if (removed === 0) throw this.kind.notFound(code);
    return code;
  }

  async one(code: string, langCode: string): Promise<CodedRow> {
    const row = await this.store.liveRow(code, langCode);
    if (!row) throw this.kind.notFound(`${code} in ${langCode}`);
    return row;
  }

  /** Every live row matching, for MOSIP's list calls; none is the not-found code. At most `limit` (lists of a country's codes are short). */
  async all(filter: CodedFilter, limit: number): Promise<CodedRow[]> {
    const rows = await this.store.matching(filter, limit);
    if (!rows.length) throw this.kind.notFound();
    return rows;
  }

  list(page: PageArgs, filter: CodedFilter, order?: CodedOrder | null): Promise<Connection<CodedRow>> {
    return this.store.list(filter, order, page);
  }

  search(request: SearchRequest): Promise<SearchPage<CodedRow>> {
    return runSearch(
      request,
      CODED_COLUMNS,
      { sortfield: 'createdDateTime', sorttype: 'ASC' },
      KEY,
      scopeOf(request.languageCode),
      (query) => this.store.search(query),
      (where) => this.store.countSearch(where),
    );
  }

  filterValues(request: FilterValuesRequest) {
    return filterValues(request, CODED_COLUMNS, scopeOf(request.languageCode), (where, field, distinct, take) =>
      this.store.columnValues(where, field, distinct, take),
    );
  }

  /** Live rows by key, for a page of entity references in one query. */
  async byKeys(keys: readonly string[]): Promise<Map<string, CodedRow>> {
    const rows = await this.store.byKeys(keys.map((key) => JSON.parse(key) as [string, string]));
    return new Map(rows.map((row) => [codedKey(row.code, row.langCode), row]));
  }
}

/** The loader key of a row: its compound key. */
export const codedKey = (code: string, langCode: string) => JSON.stringify([code, langCode]);
