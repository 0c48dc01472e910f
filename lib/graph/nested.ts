import { Prisma } from '../../generated/prisma/client.js';
import type { RequestContext } from '../context.js';
import { connection, firstOf, type Connection, type PageArgs, type PageQuery } from './connection.js';
import { loader } from './loader.js';

/**
 * A list nested under each row of a page (`misps { licenseKeys }`,
 * `users { sessions }`), as its storage serves it to `nestedConnection`.
 */
export interface NestedList<T> {
  /** the first `take` children of each parent, in the list's order: one statement for every parent (`pagesByParent`) */
  pages: (parentIds: readonly string[], take: number) => Promise<Map<string, T[]>>;
  /** how many children each parent has: one grouped statement */
  counts: (parentIds: readonly string[]) => Promise<Map<string, number>>;
  /** a page after a cursor of one parent's list (a client paging into one parent) */
  after: (parentId: string, page: PageQuery) => Promise<T[]>;
  /** the row's unique key, its cursor */
  key: (row: T) => string;
}

/**
 * One parent's page of a nested list. Every parent of the request that asks
 * for the same list with the same arguments is served by one window query
 * and, when `totalCount` is selected, one grouped count: a page of 100
 * parents costs what a page of 1 does. `name` names the list, `args` its
 * arguments (a different filter or page size is another batch).
 */
export function nestedConnection<T>(
  context: RequestContext,
  name: string,
  args: PageArgs & Record<string, unknown>,
  parentId: string,
  list: NestedList<T>,
): Promise<Connection<T>> {
  const counted = () => loader(context, `${name}:count:${JSON.stringify({ ...args, first: null, after: null })}`, list.counts)(parentId).then((n) => n ?? 0);
  // Paging into one parent's list is the rare case: its own query.
  if (args.after) return connection(args, list.key, (page) => list.after(parentId, page), counted);
  const first = firstOf(args);
  return connection(
    args,
    list.key,
    async () =>
      first === 0
        ? []
        : ((await loader(context, `${name}:page:${JSON.stringify(args)}`, (ids: readonly string[]) => list.pages(ids, first + 1))(parentId)) ?? []),
    counted,
  );
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;
const quoted = (identifier: string): Prisma.Sql => {
  if (!IDENTIFIER.test(identifier)) throw new Error(`not an SQL identifier: ${identifier}`);
  return Prisma.raw(`"${identifier}"`);
};

/** What `pagesByParent` reads: a table, its parent column, the rows' own condition and order. */
export interface WindowSpec {
  table: string;
  parentColumn: string;
  /** the list's filter, as a condition on the table's columns (no user text inlined: values as parameters) */
  where?: Prisma.Sql;
  /** the list's order, unique key last, e.g. [['createdAt', 'desc'], ['id', 'desc']] */
  orderBy: readonly (readonly [string, 'asc' | 'desc'])[];
}

interface Raw {
  $queryRaw<R>(query: Prisma.Sql): Prisma.PrismaPromise<R>;
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
      FROM ${quoted(spec.table)} t
      WHERE t.${parent} IN (${Prisma.join([...parentIds])}) AND (${spec.where ?? Prisma.sql`TRUE`})
    ) ranked
    WHERE "__rank" <= ${take}
    ORDER BY ${parent}, "__rank"`);
  for (const { __rank: _rank, ...row } of rows) {
    const key = String((row as Record<string, unknown>)[spec.parentColumn]);
    pages.set(key, [...(pages.get(key) ?? []), row as unknown as T]);
  }
  return pages;
}

/** The order of log-like nested lists: newest first, the unique id breaking ties (as `newestFirst()` for Prisma). */
export const NEWEST_FIRST: WindowSpec['orderBy'] = [
  ['createdAt', 'desc'],
  ['id', 'desc'],
];

/** A NestedList's `pages`: `pagesByParent` over `spec`, or over the spec `spec()` gives when the page is read (conditions read once, late). */
export const windowPages =
  <T extends Record<string, unknown>>(db: Raw, spec: WindowSpec | (() => Promise<WindowSpec>)) =>
  async (parentIds: readonly string[], take: number): Promise<Map<string, T[]>> =>
    pagesByParent<T>(db, typeof spec === 'function' ? await spec() : spec, parentIds, take);

/** `groupBy`'s answer as counts by parent. */
export const countsByParent = <G extends { _count: { _all: number } }>(groups: G[], parentOf: (group: G) => string): Map<string, number> =>
  new Map(groups.map((group) => [parentOf(group), group._count._all]));
