import type { DocumentCategory } from '../../../generated/prisma/client.js';
import type { PlatformError } from '../../../lib/errors.js';
import type { Connection, PageArgs } from '../../../lib/graph/connection.js';
import { LIVE, created, deleted, updated } from '../audit.js';
import { filterValues, likeLiteral, runSearch, type FilterValuesRequest, type SearchColumns, type SearchPage, type SearchRequest } from '../search.js';
import { isUniqueViolation } from '../../../lib/db/unique.js';
import { keysetConnection } from './keyset.js';

/** A category or type row: both tables have exactly these columns. */
export type CodedRow = DocumentCategory;

export interface DocumentFields {
  code: string;
  langCode: string;
  name: string;
  description?: string | null;
  isActive: boolean;
}

export interface CodedFilter {
  langCode?: string | null;
  isActive?: boolean | null;
  nameContains?: string | null;
  /** only these codes (types valid for a category) */
  codes?: readonly string[];
}

export type OrderField = 'CODE' | 'NAME' | 'CREATED_AT';
export interface CodedOrder {
  field: OrderField;
  descending?: boolean | null;
}

type Where = Record<string, unknown>;
type Order = Record<string, 'asc' | 'desc'>[];

/**
 * The calls both tables answer. Their Prisma delegates differ only in the
 * model names inside their generic types, so each is seen through this one
 * structural interface instead of two copies of every rule.
 */
export interface CodedTable {
  create(args: { data: CodedRow }): Promise<CodedRow>;
  findFirst(args: { where: Where }): Promise<CodedRow | null>;
  findMany(args: {
    where: Where;
    orderBy?: Order;
    take?: number;
    skip?: number;
    cursor?: { code_langCode: { code: string; langCode: string } };
    select?: Record<string, boolean>;
    distinct?: string[];
  }): Promise<CodedRow[]>;
  updateMany(args: { where: Where; data: Partial<CodedRow> }): Promise<{ count: number }>;
  count(args: { where: Where }): Promise<number>;
}

/** What differs between categories and types: the table, the codes, and what depends on a code. */
export interface CodedKind {
  table: CodedTable;
  notFound: (code?: string) => PlatformError;
  duplicate: (why: string) => PlatformError;
  dependency: (code: string) => PlatformError;
  /** whether a live mapping still uses the code (a delete is refused then) */
  inUse: (code: string) => Promise<boolean>;
}

// Non-null columns only: Prisma's cursor compares the cursor row's values, and a null compares as unknown.
const ORDER_COLUMNS: Record<OrderField, string> = { CODE: 'code', NAME: 'name', CREATED_AT: 'createdAt' };
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

/** Create, update, soft delete and read rows keyed by (code, langCode). */
export class CodedRows {
  constructor(private readonly kind: CodedKind) {}

  private get table() {
    return this.kind.table;
  }

  /**
   * A new row, or the revival of a soft-deleted one. Two creates racing for
   * one key: the database's key lets one in, the other gets the duplicate code.
   */
  async create(fields: DocumentFields, by: string, now: Date): Promise<CodedRow> {
    const values = { name: fields.name, description: fields.description ?? null, isActive: fields.isActive };
    try {
      return await this.table.create({
        data: { code: fields.code, langCode: fields.langCode, ...values, updatedBy: null, updatedAt: null, ...created(by, now) },
      });
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
    }
    const key = { code: fields.code, langCode: fields.langCode };
    const revived = await this.table.updateMany({
      where: { ...key, isDeleted: true },
      data: { ...values, ...created(by, now), updatedBy: null, updatedAt: null },
    });
    if (revived.count === 0) throw this.kind.duplicate(`${fields.code} already exists in ${fields.langCode}`);
    return (await this.table.findFirst({ where: key }))!;
  }

  async update(fields: DocumentFields, by: string, now: Date): Promise<CodedRow> {
    const key = { code: fields.code, langCode: fields.langCode };
    const changed = await this.table.updateMany({
      where: { ...key, ...LIVE },
      data: { name: fields.name, description: fields.description ?? null, isActive: fields.isActive, ...updated(by, now) },
    });
    if (changed.count === 0) throw this.kind.notFound(`${fields.code} in ${fields.langCode}`);
    return (await this.table.findFirst({ where: key }))!;
  }

  /** Soft-deletes the code in every language, unless a live mapping uses it. */
  async remove(code: string, by: string, now: Date): Promise<string> {
    if (!(await this.table.findFirst({ where: { code, ...LIVE } }))) throw this.kind.notFound(code);
    if (await this.kind.inUse(code)) throw this.kind.dependency(code);
    const removed = await this.table.updateMany({ where: { code, ...LIVE }, data: deleted(by, now) });
    if (removed.count === 0) throw this.kind.notFound(code);
    return code;
  }

  async one(code: string, langCode: string): Promise<CodedRow> {
    const row = await this.table.findFirst({ where: { code, langCode, ...LIVE } });
    if (!row) throw this.kind.notFound(`${code} in ${langCode}`);
    return row;
  }

  /** Every live row matching, for MOSIP's list calls; none is the not-found code. At most `limit` (lists of a country's codes are short). */
  async all(filter: CodedFilter, limit: number): Promise<CodedRow[]> {
    const rows = await this.table.findMany({ where: this.where(filter), orderBy: [{ code: 'asc' }, { langCode: 'asc' }], take: limit });
    if (!rows.length) throw this.kind.notFound();
    return rows;
  }

  list(page: PageArgs, filter: CodedFilter, order?: CodedOrder | null): Promise<Connection<CodedRow>> {
    const where = this.where(filter);
    return keysetConnection<CodedRow>(
      page,
      KEY,
      ({ take, skip, after }) =>
        this.table.findMany({
          where,
          orderBy: orderOf(order),
          take,
          ...(skip !== undefined ? { skip } : {}),
          ...(after ? { cursor: { code_langCode: { code: after[0]!, langCode: after[1]! } } } : {}),
        }),
      () => this.table.count({ where }),
    );
  }

  search(request: SearchRequest): Promise<SearchPage<CodedRow>> {
    const scope = { ...LIVE, ...(request.languageCode ? { langCode: request.languageCode } : {}) };
    return runSearch(
      request,
      CODED_COLUMNS,
      { sortfield: 'createdDateTime', sorttype: 'ASC' },
      KEY,
      scope,
      (query) => this.table.findMany(query),
      (where) => this.table.count({ where }),
    );
  }

  filterValues(request: FilterValuesRequest) {
    const scope = { ...LIVE, ...(request.languageCode ? { langCode: request.languageCode } : {}) };
    return filterValues(request, CODED_COLUMNS, scope, async (where, field, distinct, take) =>
      (
        await this.table.findMany({
          where: where as Where,
          select: { [field]: true },
          ...(distinct ? { distinct: [field] } : {}),
          orderBy: [{ [field]: 'asc' }],
          take,
        })
      ).map((row) => (row as unknown as Record<string, unknown>)[field]),
    );
  }

  /** Live rows by key, for a page of entity references in one query. */
  async byKeys(keys: readonly string[]): Promise<Map<string, CodedRow>> {
    const pairs = keys.map((key) => JSON.parse(key) as [string, string]);
    const rows = await this.table.findMany({ where: { OR: pairs.map(([code, langCode]) => ({ code, langCode })), ...LIVE } });
    return new Map(rows.map((row) => [codedKey(row.code, row.langCode), row]));
  }

  private where(filter: CodedFilter): Where {
    return {
      ...LIVE,
      ...(filter.langCode ? { langCode: filter.langCode } : {}),
      ...(typeof filter.isActive === 'boolean' ? { isActive: filter.isActive } : {}),
      ...(filter.nameContains ? { name: { contains: likeLiteral(filter.nameContains), mode: 'insensitive' } } : {}),
      ...(filter.codes ? { code: { in: [...filter.codes] } } : {}),
    };
  }
}

/** The loader key of a row: its compound key. */
export const codedKey = (code: string, langCode: string) => JSON.stringify([code, langCode]);

function orderOf(order?: CodedOrder | null): Order {
  const direction: 'asc' | 'desc' = order?.descending ? 'desc' : 'asc';
  const column = ORDER_COLUMNS[order?.field ?? 'CODE'];
  return [...(column === 'code' ? [] : [{ [column]: direction }]), { code: direction }, { langCode: direction }];
}
