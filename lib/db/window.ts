import { Prisma } from '../../generated/prisma/client.js';
import type { NestedList } from '../graph/nested.js';

// The SQL of a nested list (lib/graph/nested.ts): each parent's first rows by a window
// function, and their counts, in one statement each for a whole page of parents.

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;
const quoted = (identifier: string): Prisma.Sql => {
  if (!IDENTIFIER.test(identifier)) throw new Error(`not an SQL identifier: ${identifier}`);
  return Prisma.raw(`"${identifier}"`);
};

/** What `pagesByParent` reads: a table, its parent column, the rows' own condition and order. */
export interface WindowSpec {
  table: string;
  parentColumn: string;
  /** the list's filter: conditions on the table's columns, joined by AND (absent ones skipped; no user text inlined: values as parameters) */
  where?: readonly (Prisma.Sql | false | '' | null | undefined)[];
  /** the list's order, unique key last, e.g. [['createdAt', 'desc'], ['id', 'desc']] */
  orderBy: readonly (readonly [string, 'asc' | 'desc'])[];
}

interface Raw {
  $queryRaw<R>(query: Prisma.Sql): Prisma.PrismaPromise<R>;
}

/** The rows of `parentIds` meeting the spec's conditions, as the FROM/WHERE of a statement over alias `t`. */
function rowsOf(spec: WindowSpec, parentIds: readonly string[]): Prisma.Sql {
  const conditions = (spec.where ?? []).filter((condition): condition is Prisma.Sql => !!condition);
  return Prisma.sql`FROM ${quoted(spec.table)} t
      WHERE t.${quoted(spec.parentColumn)} IN (${Prisma.join([...parentIds])})${conditions.length ? Prisma.sql` AND ${Prisma.join(conditions, ' AND ')}` : Prisma.empty}`;
}

/**
 * The first `take` rows of each parent, in one statement: the rows ranked
 * within their parent by the list's order (ROW_NUMBER over a partition),
 * those ranked past `take` left in the database.
 */
export async function pagesByParent<T extends Record<string, unknown>>(
  db: Raw,
  spec: WindowSpec,
  parentIds: readonly string[],
  take: number,
): Promise<Map<string, T[]>> {
  const pages = new Map<string, T[]>();
  if (!parentIds.length || take <= 0) return pages;
  const parent = quoted(spec.parentColumn);
  const order = Prisma.join(
    spec.orderBy.map(([column, direction]) => Prisma.sql`${quoted(column)} ${Prisma.raw(direction === 'desc' ? 'DESC' : 'ASC')}`),
    ', ',
  );
  const rows = await db.$queryRaw<(T & { __rank: unknown })[]>(Prisma.sql`
    SELECT * FROM (
      SELECT t.*, ROW_NUMBER() OVER (PARTITION BY t.${parent} ORDER BY ${order}) AS "__rank"
      ${rowsOf(spec, parentIds)}
    ) ranked
    WHERE "__rank" <= ${take}
    ORDER BY ${parent}, "__rank"`);
  for (const { __rank: _rank, ...row } of rows) {
    const key = String((row as Record<string, unknown>)[spec.parentColumn]);
    const page = pages.get(key);
    if (page) page.push(row as unknown as T);
    else pages.set(key, [row as unknown as T]);
  }
  return pages;
}

/** How many rows each parent has under the spec's conditions: one grouped statement, the same conditions as its pages. */
export async function countsByParent(db: Raw, spec: WindowSpec, parentIds: readonly string[]): Promise<Map<string, number>> {
  if (!parentIds.length) return new Map();
  const rows = await db.$queryRaw<{ parent: unknown; n: number }[]>(
    Prisma.sql`SELECT t.${quoted(spec.parentColumn)} AS parent, count(*)::int AS n ${rowsOf(spec, parentIds)} GROUP BY t.${quoted(spec.parentColumn)}`,
  );
  return new Map(rows.map((row) => [String(row.parent), row.n]));
}

/** The order of log-like nested lists: newest first, the unique id breaking ties (as `newestFirst()` for Prisma). */
export const NEWEST_FIRST: WindowSpec['orderBy'] = [
  ['createdAt', 'desc'],
  ['id', 'desc'],
];

/**
 * A nested list over one table: its pages and counts from the same spec (so
 * a page and its totalCount read the same conditions), the spec built late
 * when it is a function (conditions read once, when the list is first read);
 * paging after a cursor is the caller's.
 */
export function windowList<T extends Record<string, unknown>>(
  db: Raw,
  spec: WindowSpec | (() => Promise<WindowSpec>),
  rest: Pick<NestedList<T>, 'after' | 'key'>,
): NestedList<T> {
  let built: Promise<WindowSpec> | undefined;
  const specOf = () => (typeof spec === 'function' ? (built ??= spec()) : Promise.resolve(spec));
  return {
    pages: async (parentIds, take) => pagesByParent<T>(db, await specOf(), parentIds, take),
    counts: async (parentIds) => countsByParent(db, await specOf(), parentIds),
    ...rest,
  };
}
