import { z } from 'zod';
import { capped } from '../../lib/graph/capped.js';
import { pageArguments } from '../../lib/input.js';
import { masterdataErrors } from './errors.js';

/** Relay's page arguments of the portal's lists (`connection` bounds `first`); master data's keys are short, and so their cursors. */
export const connectionPage = pageArguments();

/** MOSIP's paged-list query, shared by every /all call. */
export const pagedListInput = z.object({
  orderBy: z.string().max(4).nullish(),
  // GraphQL's Int at most; pagedQuery bounds the page itself
  pageNumber: z.coerce.number().int().max(2_147_483_647).nullish(),
  pageSize: z.coerce.number().int().max(2_147_483_647).nullish(),
  sortBy: z.string().max(64).nullish(),
});

/** MOSIP's paged list arguments (`/all` calls): Document 1's defaults are desc, page 0, 10 rows, by createdDateTime. */
export interface PagedArgs {
  orderBy?: string | null;
  pageNumber?: number | null;
  pageSize?: number | null;
  sortBy?: string | null;
}

/** MOSIP's PageDto. */
export interface Paged<T> {
  data: T[];
  pageNo: number;
  totalItems: number;
  totalPages: number;
}

export const MAX_PAGE_SIZE = 100;
/** How far a list pages: beyond it an offset would no longer fit the database's integer. */
export const MAX_PAGE_NUMBER = 1_000_000;

/**
 * The most rows an unpaged master data list answers (the spec's lists by language have no paging, and
 * their fields declare `@listSize(assumedSize: 10000)`); the portal pages through connections.
 */
export const LIST_LIMIT = 10_000;

/**
 * A whole list of master data, as the spec answers it: at most LIST_LIMIT rows, read as one more, and
 * refused beyond (KER-MSD-500 naming the connection to page through), never cut short in silence.
 */
export const wholeList = <T>(what: string, connection: string, find: (take: number) => Promise<T[]>): Promise<T[]> =>
  capped(LIST_LIMIT, find, () => masterdataErrors.listTooLong(what, LIST_LIMIT, connection));

/**
 * Prisma's orderBy, skip and take for a paged list. `sortable` maps the
 * names callers sort by (MOSIP's DTO names) to row fields; `key` ends the
 * order so pages never overlap.
 */
export function pagedQuery(args: PagedArgs, sortable: Readonly<Record<string, string>>, key: readonly string[]) {
  const requested = (args.orderBy ?? 'desc').toLowerCase();
  if (requested !== 'asc' && requested !== 'desc') throw masterdataErrors.badSortType(String(args.orderBy));
  const direction: 'asc' | 'desc' = requested;
  const sortBy = args.sortBy ?? 'createdDateTime';
  const field = sortable[sortBy];
  if (!field) throw masterdataErrors.badSortColumn(sortBy);
  const pageNumber = args.pageNumber ?? 0;
  const pageSize = args.pageSize ?? 10;
  if (!Number.isInteger(pageNumber) || !Number.isInteger(pageSize) || pageNumber < 0 || pageSize < 1) throw masterdataErrors.badPagination();
  if (pageSize > MAX_PAGE_SIZE) throw masterdataErrors.badSearch(`pageSize is at most ${MAX_PAGE_SIZE}`);
  if (pageNumber > MAX_PAGE_NUMBER) throw masterdataErrors.badSearch(`pageNumber is at most ${MAX_PAGE_NUMBER}`);
  const orderBy: Record<string, 'asc' | 'desc'>[] = [{ [field]: direction }, ...key.filter((k) => k !== field).map((k) => ({ [k]: direction }))];
  return { orderBy, skip: pageNumber * pageSize, take: pageSize, pageNumber, pageSize };
}

/** One page of a paged list as storage reads it: the order (row fields), the rows before it, and its size. */
export type PagedQuery = { orderBy: Record<string, 'asc' | 'desc'>[]; skip: number; take: number };

/** One page and the total, in two queries. */
export async function paged<T>(
  args: PagedArgs,
  sortable: Readonly<Record<string, string>>,
  key: readonly string[],
  find: (query: PagedQuery) => Promise<T[]>,
  count: () => Promise<number>,
): Promise<Paged<T>> {
  const { pageNumber, pageSize, ...query } = pagedQuery(args, sortable, key);
  const [data, totalItems] = await Promise.all([find(query), count()]);
  return { data, pageNo: pageNumber, totalItems, totalPages: Math.ceil(totalItems / pageSize) };
}
