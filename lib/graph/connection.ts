import { PlatformError } from '../errors.js';

/** Relay's page arguments: forward (`first` after a cursor) or backward (`last` before one). */
export interface PageArgs {
  first?: number | null;
  after?: string | null;
  last?: number | null;
  before?: string | null;
  /** the list asked for in the reverse of its own order (`orderBy`, lib/graph/ordering.ts): read from its other end */
  reversed?: boolean | null;
}

export interface Edge<T> {
  cursor: string;
  node: T;
}

export interface Connection<T> {
  edges: Edge<T>[];
  pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null };
  /** a function, so the count runs only when a caller selects it */
  totalCount: () => Promise<number>;
}

export const DEFAULT_PAGE = 20;
export const MAX_PAGE = 100;

/** Cursors are opaque to callers: the unique key of the row, base64url. */
export const encodeCursor = (key: string): string => Buffer.from(key, 'utf8').toString('base64url');

function decodeCursor(cursor: string, argument: 'after' | 'before'): string {
  const key = Buffer.from(cursor, 'base64url').toString('utf8');
  // No key of a row holds NUL (PostgreSQL cannot store it): a cursor that decodes to one is forged.
  if (!key || key.includes('\u0000') || encodeCursor(key) !== cursor) throw new PlatformError('BAD_USER_INPUT', `${argument}: not a cursor of this list`);
  return key;
}

/**
 * One read of a list, in Prisma's cursor terms: `take` rows from the list's
 * start, or after the cursor row; a negative `take` reads backward, the rows
 * before the cursor (or the list's last ones), still in the list's order.
 */
export interface PageQuery {
  take: number;
  skip?: number;
  /** the unique key of the cursor row (after which a page starts, or before which a backward page ends) */
  after?: string;
}

function sizeOf(value: number | null | undefined, argument: 'first' | 'last'): number {
  const size = value ?? DEFAULT_PAGE;
  if (!Number.isInteger(size) || size < 0 || size > MAX_PAGE) throw new PlatformError('BAD_USER_INPUT', `${argument}: between 0 and ${MAX_PAGE}`);
  return size;
}

/** The page size asked for: DEFAULT_PAGE when absent, refused outside 0..MAX_PAGE. */
export const firstOf = (args: PageArgs): number => sizeOf(args.first, 'first');

/** Whether the page is asked for backward (`last` or `before`); both directions at once are refused. */
export function isBackward(args: PageArgs): boolean {
  const backward = (args.last ?? null) !== null || !!args.before;
  if (backward && ((args.first ?? null) !== null || !!args.after))
    throw new PlatformError('BAD_USER_INPUT', 'page forward (first, after) or backward (last, before), not both');
  return backward;
}

/**
 * One page of a list in Relay's shape. `find` runs the query with Prisma's
 * cursor pagination (`cursor: { key: after }, skip: 1`) over a unique key, so
 * a page costs one indexed query whatever its depth in the list; one row more
 * than asked tells whether another page follows.
 */
export async function connection<T>(
  args: PageArgs,
  keyOf: (row: T) => string,
  find: (page: PageQuery) => Promise<T[]>,
  count: () => Promise<number>,
): Promise<Connection<T>> {
  if (args.reversed) return reversedConnection(args, keyOf, find, count);
  let page: T[];
  let pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean };
  if (isBackward(args)) {
    // Prisma reads backward with a negative take: the rows before the cursor, in the list's order.
    const last = sizeOf(args.last, 'last');
    const before = args.before ? decodeCursor(args.before, 'before') : undefined;
    const rows = last === 0 ? [] : await find({ take: -(last + 1), ...(before ? { after: before, skip: 1 } : {}) });
    page = rows.slice(Math.max(0, rows.length - last));
    pageInfo = { hasNextPage: before !== undefined, hasPreviousPage: rows.length > last };
  } else {
    const first = firstOf(args);
    const after = args.after ? decodeCursor(args.after, 'after') : undefined;
    const rows = first === 0 ? [] : await find({ take: first + 1, ...(after ? { after, skip: 1 } : {}) });
    page = rows.slice(0, first);
    pageInfo = { hasNextPage: rows.length > first, hasPreviousPage: after !== undefined };
  }
  const edges = page.map((node) => ({ cursor: encodeCursor(keyOf(node)), node }));
  let counted: Promise<number> | undefined;
  return {
    edges,
    pageInfo: { ...pageInfo, startCursor: edges[0]?.cursor ?? null, endCursor: edges.at(-1)?.cursor ?? null },
    totalCount: () => (counted ??= count()),
  };
}

/**
 * A list in the reverse of its own order: its first page is the stored
 * order's last, read backward, each page's rows turned round. Cursors stay
 * the rows' keys, so `after` in the reversed list is `before` in the stored one.
 */
async function reversedConnection<T>(
  args: PageArgs,
  keyOf: (row: T) => string,
  find: (page: PageQuery) => Promise<T[]>,
  count: () => Promise<number>,
): Promise<Connection<T>> {
  const backward = isBackward(args);
  const stored = await connection(
    backward ? { first: args.last ?? DEFAULT_PAGE, after: args.before } : { last: args.first ?? DEFAULT_PAGE, before: args.after },
    keyOf,
    find,
    count,
  );
  const edges = [...stored.edges].reverse();
  return {
    edges,
    pageInfo: {
      hasNextPage: stored.pageInfo.hasPreviousPage,
      hasPreviousPage: stored.pageInfo.hasNextPage,
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges.at(-1)?.cursor ?? null,
    },
    totalCount: stored.totalCount,
  };
}

/** Prisma's orderBy from a GraphQL `{field, direction}` input, the unique key last so the order is total. */
export function orderBy<F extends string>(
  order: { field: F; direction: 'ASC' | 'DESC' } | null | undefined,
  columns: Record<F, string>,
  fallback: F,
  key: string,
): Record<string, 'asc' | 'desc'>[] {
  const column = columns[order?.field ?? fallback];
  const direction = order?.direction === 'DESC' ? 'desc' : 'asc';
  return column === key ? [{ [key]: direction }] : [{ [column]: direction }, { [key]: direction }];
}

/** Prisma's arguments for one page of `connection`: take, skip, and the cursor on the unique `key`. */
export function pageArgs<K extends string>({ take, skip, after }: PageQuery, key: K): { take: number; skip?: number; cursor?: Record<K, string> } {
  return { take, ...(skip !== undefined ? { skip } : {}), ...(after !== undefined ? { cursor: { [key]: after } as Record<K, string> } : {}) };
}

/** Newest first, the unique id breaking ties: the order of every log-like list. */
export const newestFirst = (): [{ createdAt: 'desc' }, { id: 'desc' }] => [{ createdAt: 'desc' }, { id: 'desc' }];
