// What the storage of partner management's areas shares.
import { capped } from '../../lib/graph/capped.js';
import { connection, newestFirst, pageArgs, type Connection, type PageArgs } from '../../lib/graph/connection.js';
import { partnerErrors } from './errors.js';

/** The most rows a whole list answers (GET /misps, /policies, /policies/group/all, /pmpartners: the spec pages none of them). */
export const WHOLE_LIST_LIMIT = 1000;
/** The most MISPs a name search answers (GET /misps/name/{name}). */
export const NAME_SEARCH_LIMIT = 100;

/**
 * A whole list as the spec answers it: at most `cap` rows, read as one more, and refused beyond
 * (PMS_COR_003 naming the connection to page through), never cut short in silence.
 */
export const wholeList = <T>(what: string, connection: string, find: (take: number) => Promise<T[]>, cap = WHOLE_LIST_LIMIT): Promise<T[]> =>
  capped(cap, find, () => partnerErrors.listTooLong(what, cap, connection));

/** Who changed a row, and when (its updatedBy and updatedAt). */
export interface Stamp {
  by: string;
  at: Date;
}

/** A table listed page by page (Prisma's model delegates). */
interface Listed<W, T> {
  findMany(args: { where: W; take: number; skip?: number; cursor?: { id: string }; orderBy: ReturnType<typeof newestFirst> }): PromiseLike<T[]>;
  count(args: { where: W }): PromiseLike<number>;
}

/** One page of a table's rows newest first, keyed by id, with their count. */
export const newestPage = <W, T extends { id: string }>(table: Listed<W, T>, where: W, page: PageArgs): Promise<Connection<T>> =>
  connection<T>(
    page,
    (row) => row.id,
    async (query) => table.findMany({ where, ...pageArgs(query, 'id'), orderBy: newestFirst() }),
    async () => table.count({ where }),
  );
