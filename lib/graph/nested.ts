import type { RequestContext } from '../context.js';
import { connection, firstOf, isBackward, type Connection, type PageArgs, type PageQuery } from './connection.js';
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
  /** a page of one parent's list from a cursor or its end (a client paging into one parent): Prisma's take, skip and cursor */
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
  const counted = () =>
    loader(
      context,
      `${name}:count:${JSON.stringify({ ...args, first: null, after: null, last: null, before: null, reversed: null })}`,
      list.counts,
    )(parentId).then((n) => n ?? 0);
  // Paging into one parent's list, from its end or in reverse, is the rare case: its own query.
  if (args.after || isBackward(args) || args.reversed) return connection(args, list.key, (page) => list.after(parentId, page), counted);
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
