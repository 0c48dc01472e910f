import { Prisma, type PrismaClient, type Vid } from '../../../generated/prisma/client.js';
import { underLock, type Tx } from '../../../lib/db/lock.js';
import { isUniqueViolation } from '../../../lib/db/unique.js';
import { PlatformError } from '../../../lib/errors.js';
import { pageArgs } from '../../../lib/graph/connection.js';
import { type NestedList } from '../../../lib/graph/nested.js';
import { NEWEST_FIRST, windowList } from '../../../lib/db/window.js';
import { idrepoErrors, vidErrors } from '../errors.js';
import { identityTables } from '../identities/storage.js';

export type VidRow = Vid;
/** The database a VID storage is built over. */
export type VidDatabase = PrismaClient;
export type NewVid = Omit<VidRow, 'updatedBy' | 'updatedAt'>;

/** The portal's filter, the type as the policy spells it; EXPIRED reads as the VIDs read (an ACTIVE one past its expiry too). */
export interface StoredVidFilter {
  type?: string | null;
  status?: string | null;
}

/** What the VID rules read and write inside one transaction, under the identity's lock. */
export interface LockedVids {
  /** the identity's status; null when there is none (the identities' storage) */
  identityStatus(identityId: string): Promise<string | null>;
  byId(id: string): Promise<VidRow | null>;
  /** the ids of the identity's ACTIVE, unexpired VIDs of the type, oldest first */
  usableOfType(identityId: string, vidType: string, now: Date): Promise<string[]>;
  setStatus(id: string, status: string, actor: string, now: Date): Promise<void>;
  /** whether a VID holds the number of this look-up */
  numberTaken(vidHash: string): Promise<boolean>;
  insert(row: NewVid): Promise<void>;
  /** every unexpired VID of the identity in status `from` moved to `to`; how many */
  moveAll(identityId: string, from: string, to: string, actor: string, now: Date): Promise<number>;
}

/** The VIDs' table as the rules see it: the seam a test fills with rows in memory. */
export interface VidStore {
  /**
   * `work` in one transaction under the identity's lock (the one identity
   * updates take): a refusal part-way leaves nothing changed. A concurrent
   * insert of the same number runs the whole work again (IDR-VID-002 after
   * the last attempt); a failure of the database is IDR-IDC-006.
   */
  locked<T>(identityId: string, work: (tx: LockedVids) => Promise<T>): Promise<T>;
  byHash(vidHash: string): Promise<VidRow | null>;
  byIds(ids: readonly string[]): Promise<VidRow[]>;
  /** the identity's ACTIVE, unexpired VIDs, oldest first (the first `take` when given) */
  usable(identityId: string, now: Date, take?: number): Promise<VidRow[]>;
  /** the identity's VIDs, newest first */
  ofIdentities(filter: StoredVidFilter, now: Date): NestedList<VidRow>;
}

/** Whole attempts when a concurrent insert took the drawn number first (unique index on vidHash). */
const MAX_ATTEMPTS = 3;
const OLDEST_FIRST: Prisma.VidOrderByWithRelationInput[] = [{ createdAt: 'asc' }, { id: 'asc' }];
const unexpired = (now: Date): Prisma.VidWhereInput => ({ OR: [{ expiresAt: null }, { expiresAt: { gt: now } }] });
const usable = (now: Date): Prisma.VidWhereInput => ({ status: 'ACTIVE', ...unexpired(now) });

/** The VIDs' table (idrepo_vid): the only code that touches it. */
export class VidStorage implements VidStore {
  constructor(private readonly prisma: PrismaClient) {}

  async locked<T>(identityId: string, work: (tx: LockedVids) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await underLock(this.prisma, `idrepo_identity:${identityId}`, (tx) => work(inTransaction(tx)));
      } catch (error) {
        if (error instanceof PlatformError) throw error;
        if (isUniqueViolation(error) && attempt < MAX_ATTEMPTS) continue;
        throw isUniqueViolation(error) ? vidErrors.generation() : idrepoErrors.database();
      }
    }
  }

  byHash(vidHash: string): Promise<VidRow | null> {
    return this.prisma.vid.findUnique({ where: { vidHash } });
  }

  byIds(ids: readonly string[]): Promise<VidRow[]> {
    return this.prisma.vid.findMany({ where: { id: { in: [...ids] } } });
  }

  usable(identityId: string, now: Date, take?: number): Promise<VidRow[]> {
    return this.prisma.vid.findMany({ where: { identityId, ...usable(now) }, orderBy: OLDEST_FIRST, ...(take === undefined ? {} : { take }) });
  }

  /** Each identity's VIDs of a page, newest first: one window query and one grouped count for the page. */
  ofIdentities(filter: StoredVidFilter, now: Date): NestedList<VidRow> {
    const and: Prisma.VidWhereInput[] = [];
    const sql: Prisma.Sql[] = [];
    if (filter.type) {
      and.push({ vidType: filter.type });
      sql.push(Prisma.sql`"vidType" = ${filter.type}`);
    }
    const unexpiredSql = Prisma.sql`("expiresAt" IS NULL OR "expiresAt" > ${now})`;
    if (filter.status === 'ACTIVE') {
      and.push(usable(now));
      sql.push(Prisma.sql`"status" = 'ACTIVE' AND ${unexpiredSql}`);
    } else if (filter.status === 'EXPIRED') {
      and.push({ OR: [{ status: 'EXPIRED' }, { status: 'ACTIVE', expiresAt: { lte: now } }] });
      sql.push(Prisma.sql`("status" = 'EXPIRED' OR ("status" = 'ACTIVE' AND "expiresAt" <= ${now}))`);
    } else if (filter.status) {
      and.push({ status: filter.status });
      sql.push(Prisma.sql`"status" = ${filter.status}`);
    }
    return windowList<VidRow>(
      this.prisma,
      { table: 'idrepo_vid', parentColumn: 'identityId', where: sql, orderBy: NEWEST_FIRST },
      {
        after: (identityId, page) =>
          this.prisma.vid.findMany({ where: { AND: [{ identityId }, ...and] }, ...pageArgs(page, 'id'), orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] }),
        key: (row) => row.id,
      },
    );
  }
}

function inTransaction(tx: Tx): LockedVids {
  return {
    identityStatus: (identityId) => identityTables.status(tx, identityId),
    byId: (id) => tx.vid.findUnique({ where: { id } }),
    usableOfType: async (identityId, vidType, now) =>
      (await tx.vid.findMany({ where: { identityId, vidType, ...usable(now) }, orderBy: OLDEST_FIRST, select: { id: true } })).map((row) => row.id),
    setStatus: async (id, status, actor, now) => {
      await tx.vid.update({ where: { id }, data: { status, updatedBy: actor, updatedAt: now } });
    },
    numberTaken: async (vidHash) => (await tx.vid.findUnique({ where: { vidHash }, select: { id: true } })) !== null,
    insert: async (row) => {
      await tx.vid.create({ data: row });
    },
    moveAll: async (identityId, from, to, actor, now) =>
      (await tx.vid.updateMany({ where: { identityId, status: from, ...unexpired(now) }, data: { status: to, updatedBy: actor, updatedAt: now } })).count,
  };
}

/** A service built from the client gets this storage over it; a test hands it a store of its own. */
export function vidStoreOf(db: VidDatabase | VidStore): VidStore {
  return '$transaction' in db ? new VidStorage(db) : db;
}
