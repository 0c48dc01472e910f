import type { ApplicantTypeRule, ApplicantValidDocument, DocumentCategory, PrismaClient } from '../../../../generated/prisma/client.js';
import type { Connection, PageArgs } from '../../../../lib/graph/connection.js';
import { LIVE, type Created, type Deleted, type Updated } from '../../audit.js';
import { likeLiteral, type SearchQuery, type SearchWhere } from '../../search.js';
import { unlessTaken } from '../../../../lib/db/unique.js';
import { keysetConnection } from '../keyset.js';

/** A category or type row: both tables have exactly these columns. */
export type CodedRow = DocumentCategory;
export type ApplicantTypeRuleRow = ApplicantTypeRule;
export type ApplicantValidDocumentRow = ApplicantValidDocument;

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

export interface CodedKey {
  code: string;
  langCode: string;
}

/** What a write of a category or type sets besides its key and audit columns. */
export interface CodedValues {
  name: string;
  description: string | null;
  isActive: boolean;
}

/** A code mapped elsewhere: by its category or by its type. */
export type MappedCode = { docCategoryCode: string } | { docTypeCode: string };

/** One table of categories or of types as the rules see it: the seam a test fills with rows in memory. */
export interface CodedStore {
  /** a new row: null when its key is taken (by a live or a deleted row) */
  insert(row: CodedRow): Promise<CodedRow | null>;
  /** brings back the deleted row of the key with these values: how many (0 or 1) */
  revive(key: CodedKey, values: CodedValues & Created & { updatedBy: null; updatedAt: null }): Promise<number>;
  /** changes the live row of the key: how many (0 or 1) */
  change(key: CodedKey, values: CodedValues & Updated): Promise<number>;
  /** the row of the key, live or deleted */
  rowOf(key: CodedKey): Promise<CodedRow | null>;
  /** a live row of the code in a language, or in any when none is given */
  liveRow(code: string, langCode?: string): Promise<CodedRow | null>;
  /** whether the code has a live row in some language */
  exists(code: string): Promise<boolean>;
  /** soft-deletes the code in every language: how many rows */
  remove(code: string, stamp: Deleted): Promise<number>;
  /** the first `take` live rows matching, by code and language */
  matching(filter: CodedFilter, take: number): Promise<CodedRow[]>;
  /** the live, active rows of these codes (in these languages when given), by code and language */
  activeOf(codes: readonly string[], languages?: readonly string[] | null): Promise<CodedRow[]>;
  /** the portal's list */
  list(filter: CodedFilter, order: CodedOrder | null | undefined, page: PageArgs): Promise<Connection<CodedRow>>;
  search(query: SearchQuery): Promise<CodedRow[]>;
  countSearch(where: SearchWhere): Promise<number>;
  /** the first `take` values of a column (distinct ones when asked) of the rows `where` selects, in order */
  columnValues(where: object, field: string, distinct: boolean, take: number): Promise<unknown[]>;
  /** live rows of these keys */
  byKeys(keys: readonly (readonly [string, string])[]): Promise<CodedRow[]>;
}

type Where = Record<string, unknown>;
type Order = Record<string, 'asc' | 'desc'>[];

/**
 * The calls both tables answer. Their Prisma delegates differ only in the
 * model names inside their generic types, so each is seen through this one
 * structural interface instead of two copies of every query.
 */
interface CodedTable {
  create(args: { data: CodedRow }): Promise<CodedRow>;
  findFirst(args: { where: Where; select?: Record<string, boolean> }): Promise<CodedRow | null>;
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

// Non-null columns only: Prisma's cursor compares the cursor row's values, and a null compares as unknown.
const ORDER_COLUMNS: Record<OrderField, string> = { CODE: 'code', NAME: 'name', CREATED_AT: 'createdAt' };
const BY_CODE: Order = [{ code: 'asc' }, { langCode: 'asc' }];

function orderOf(order?: CodedOrder | null): Order {
  const direction: 'asc' | 'desc' = order?.descending ? 'desc' : 'asc';
  const column = ORDER_COLUMNS[order?.field ?? 'CODE'];
  return [...(column === 'code' ? [] : [{ [column]: direction }]), { code: direction }, { langCode: direction }];
}

function whereOf(filter: CodedFilter): Where {
  return {
    ...LIVE,
    ...(filter.langCode ? { langCode: filter.langCode } : {}),
    ...(typeof filter.isActive === 'boolean' ? { isActive: filter.isActive } : {}),
    ...(filter.nameContains ? { name: { contains: likeLiteral(filter.nameContains), mode: 'insensitive' } } : {}),
    ...(filter.codes ? { code: { in: [...filter.codes] } } : {}),
  };
}

/** The document categories' or types' table (md_document_category, md_document_type): the only code that touches them. */
export class CodedStorage implements CodedStore {
  private constructor(private readonly table: CodedTable) {}

  static categories(prisma: PrismaClient): CodedStorage {
    return new CodedStorage(prisma.documentCategory as unknown as CodedTable);
  }

  static types(prisma: PrismaClient): CodedStorage {
    return new CodedStorage(prisma.documentType as unknown as CodedTable);
  }

  insert(row: CodedRow): Promise<CodedRow | null> {
    return unlessTaken(this.table.create({ data: row }));
  }

  async revive(key: CodedKey, values: CodedValues & Created & { updatedBy: null; updatedAt: null }): Promise<number> {
    return (await this.table.updateMany({ where: { ...key, isDeleted: true }, data: values })).count;
  }

  async change(key: CodedKey, values: CodedValues & Updated): Promise<number> {
    return (await this.table.updateMany({ where: { ...key, ...LIVE }, data: values })).count;
  }

  rowOf(key: CodedKey): Promise<CodedRow | null> {
    return this.table.findFirst({ where: { ...key } });
  }

  liveRow(code: string, langCode?: string): Promise<CodedRow | null> {
    return this.table.findFirst({ where: { code, ...(langCode !== undefined ? { langCode } : {}), ...LIVE } });
  }

  async exists(code: string): Promise<boolean> {
    return (await this.table.findFirst({ where: { code, ...LIVE }, select: { code: true } })) !== null;
  }

  async remove(code: string, stamp: Deleted): Promise<number> {
    return (await this.table.updateMany({ where: { code, ...LIVE }, data: stamp })).count;
  }

  matching(filter: CodedFilter, take: number): Promise<CodedRow[]> {
    return this.table.findMany({ where: whereOf(filter), orderBy: BY_CODE, take });
  }

  activeOf(codes: readonly string[], languages?: readonly string[] | null): Promise<CodedRow[]> {
    const inLanguages = languages?.length ? { langCode: { in: [...languages] } } : {};
    return this.table.findMany({ where: { code: { in: [...codes] }, isActive: true, ...LIVE, ...inLanguages }, orderBy: BY_CODE });
  }

  list(filter: CodedFilter, order: CodedOrder | null | undefined, page: PageArgs): Promise<Connection<CodedRow>> {
    const where = whereOf(filter);
    return keysetConnection<CodedRow>(
      page,
      ['code', 'langCode'],
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

  search(query: SearchQuery): Promise<CodedRow[]> {
    return this.table.findMany(query);
  }

  countSearch(where: SearchWhere): Promise<number> {
    return this.table.count({ where });
  }

  async columnValues(where: object, field: string, distinct: boolean, take: number): Promise<unknown[]> {
    const rows = await this.table.findMany({
      where: where as Where,
      select: { [field]: true },
      ...(distinct ? { distinct: [field] } : {}),
      orderBy: [{ [field]: 'asc' }],
      take,
    });
    return rows.map((row) => (row as unknown as Record<string, unknown>)[field]);
  }

  byKeys(keys: readonly (readonly [string, string])[]): Promise<CodedRow[]> {
    return this.table.findMany({ where: { OR: keys.map(([code, langCode]) => ({ code, langCode })), ...LIVE } });
  }
}
