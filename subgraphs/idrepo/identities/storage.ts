import { randomUUID } from 'node:crypto';
import { Prisma, type Identity, type IdentityFile, type IdentityReadAudit, type PrismaClient } from '../../../generated/prisma/client.js';
import { underLock, type Tx } from '../../../lib/db/lock.js';
import { isUniqueViolation } from '../../../lib/db/unique.js';
import { pageArgs } from '../../../lib/graph/connection.js';
import { type NestedList } from '../../../lib/graph/nested.js';
import { windowList } from '../../../lib/db/window.js';

/** Which reads of an identity the portal lists. */
export interface ReadFilter {
  readBy?: string | null;
  lookup?: string | null;
  part?: string | null;
  from?: Date | null;
  to?: Date | null;
}

export type IdentityRow = Identity;
export type IdentityFileRow = IdentityFile;
export type { IdentityReadAudit };

/** The client, or a transaction another area's storage holds. */
type Db = PrismaClient | Tx;

/** How an identity is named: its UIN's look-up HMAC, or a registration id that created or updated it. */
export type StoredLookup = { uinHash: string } | { rid: string };

/** One read of an identity, for its audit trail. */
export interface ReadRecord {
  readBy: string;
  roles: string[];
  parts: string[];
  lookup: string;
  readAt: Date;
}

/** The columns of a new identity, sealed by the service. */
export type NewIdentity = Omit<IdentityRow, 'updatedBy' | 'updatedAt'>;
/** What an update writes over the identity's columns. */
export type IdentityChange = Pick<IdentityRow, 'status' | 'registrationId' | 'biometricReferenceId' | 'identityData' | 'identityHash' | 'schemaVersion'> & {
  updatedBy: string;
  updatedAt: Date;
};
/** A file row, its object already in the store. */
export type NewFile = Omit<IdentityFileRow, 'createdAt'>;

/** What an update came to: written (with the file rows it replaced), `changed` (another update won the race) or `taken` (its RID was stored meanwhile). */
export type UpdateOutcome = { row: IdentityRow; replaced: IdentityFileRow[] } | 'changed' | 'taken';

/** The identities' rows the other areas' storage reads, in their own transaction. */
export const identityTables = {
  /** The identity's status; null when there is none. */
  async status(db: Db, id: string): Promise<string | null> {
    return (await db.identity.findUnique({ where: { id }, select: { status: true } }))?.status ?? null;
  },
  /** Which of these UIN look-ups an identity holds. */
  async heldUinHashes(db: Db, uinHashes: readonly string[]): Promise<Set<string>> {
    const rows = await db.identity.findMany({ where: { uinHash: { in: [...uinHashes] } }, select: { uinHash: true } });
    return new Set(rows.map((row) => row.uinHash));
  },
};

/**
 * The identities' tables (idrepo_identity, its registrations, files and read
 * audit): the only code that touches them. `leavePool` removes a stored UIN
 * from the UIN pool in the identity's own transaction (the uins area's
 * storage, handed in so that neither storage imports the other).
 */
export class IdentityStorage {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly leavePool: (tx: Tx, uinHash: string) => Promise<void>,
  ) {}

  async byLookup(lookup: StoredLookup): Promise<IdentityRow | null> {
    if ('uinHash' in lookup) return this.prisma.identity.findUnique({ where: { uinHash: lookup.uinHash } });
    return (await this.prisma.identityRegistration.findUnique({ where: { registrationId: lookup.rid }, include: { identity: true } }))?.identity ?? null;
  }

  /** The identities several registrations created or updated, by RID (one query for a page of registrations). */
  async byRegistrations(rids: readonly string[]): Promise<Map<string, IdentityRow>> {
    if (!rids.length) return new Map();
    const rows = await this.prisma.identityRegistration.findMany({ where: { registrationId: { in: [...rids] } }, include: { identity: true } });
    return new Map(rows.map((row) => [row.registrationId, row.identity]));
  }

  /** The RIDs that created or updated each identity, oldest first (one query for a page of identities). */
  async registrationsOf(identityIds: readonly string[]): Promise<Map<string, string[]>> {
    const grouped = new Map<string, string[]>();
    if (!identityIds.length) return grouped;
    const rows = await this.prisma.identityRegistration.findMany({
      where: { identityId: { in: [...identityIds] } },
      orderBy: [{ createdAt: 'asc' }, { registrationId: 'asc' }],
      select: { identityId: true, registrationId: true },
    });
    for (const row of rows) grouped.set(row.identityId, [...(grouped.get(row.identityId) ?? []), row.registrationId]);
    return grouped;
  }

  async uinTaken(uinHash: string): Promise<boolean> {
    return (await this.prisma.identity.findUnique({ where: { uinHash }, select: { id: true } })) !== null;
  }

  async ridTaken(registrationId: string): Promise<boolean> {
    return (await this.prisma.identityRegistration.findUnique({ where: { registrationId }, select: { registrationId: true } })) !== null;
  }

  /** The identity, its first registration and its files in one transaction, its UIN out of the pool; null when a racing writer stored the UIN or RID first. */
  async create(identity: NewIdentity, files: readonly NewFile[]): Promise<IdentityRow | null> {
    try {
      return await this.prisma.$transaction(async (tx) => {
        const created = await tx.identity.create({ data: identity });
        await tx.identityRegistration.create({ data: { registrationId: identity.registrationId, identityId: identity.id, createdAt: identity.createdAt } });
        if (files.length) await tx.identityFile.createMany({ data: files.map((file) => ({ ...file, createdAt: identity.createdAt })) });
        await this.leavePool(tx, identity.uinHash);
        return created;
      });
    } catch (error) {
      if (isUniqueViolation(error)) return null;
      throw error;
    }
  }

  /**
   * The identity and the record of this read, in one statement (one round
   * trip on every read ID authentication makes): the attempt is recorded
   * even when what is stored then fails its checks. Null, and nothing
   * recorded, when none matches.
   */
  async findAudited(lookup: StoredLookup, read: ReadRecord): Promise<IdentityRow | null> {
    const found =
      'uinHash' in lookup
        ? Prisma.sql`SELECT * FROM idrepo_identity WHERE "uinHash" = ${lookup.uinHash}`
        : Prisma.sql`SELECT i.* FROM idrepo_identity i JOIN idrepo_identity_registration r ON r."identityId" = i.id WHERE r."registrationId" = ${lookup.rid}`;
    const [row] = await this.prisma.$queryRaw<IdentityRow[]>`
      WITH found AS (${found}),
           audit AS (INSERT INTO idrepo_read_audit (id, "identityId", "readBy", roles, parts, lookup, "readAt")
                     SELECT ${randomUUID()}, id, ${read.readBy}, ${read.roles}::text[], ${read.parts}::text[], ${read.lookup}, ${read.readAt}::timestamp(3) FROM found)
      SELECT * FROM found`;
    return row ?? null;
  }

  async audit(identityId: string, read: ReadRecord): Promise<void> {
    await this.prisma.identityReadAudit.create({ data: { id: randomUUID(), identityId, ...read } });
  }

  /** The identity's files of these kinds (BIO, DEMO), by category. */
  files(identityId: string, kinds: readonly string[]): Promise<IdentityFileRow[]> {
    if (!kinds.length) return Promise.resolve([]);
    return this.prisma.identityFile.findMany({ where: { identityId, kind: { in: [...kinds] } }, orderBy: { category: 'asc' } });
  }

  /**
   * An update applied only to the identity as it was read (`current`): its
   * columns changed, the files of the `leaving` categories replaced by
   * `files`, the registration recorded. Under the identity's lock, which the
   * VID storage takes too: a VID is never issued beside a status change.
   */
  async update(current: IdentityRow, change: IdentityChange, leaving: readonly string[], files: readonly NewFile[]): Promise<UpdateOutcome> {
    const now = change.updatedAt;
    try {
      const outcome = await underLock(this.prisma, `idrepo_identity:${current.id}`, async (tx) => {
        const changed = await tx.identity.updateMany({
          where: { id: current.id, identityData: current.identityData, status: current.status },
          data: change,
        });
        if (changed.count !== 1) return null;
        const replaced = await tx.identityFile.findMany({ where: { identityId: current.id, category: { in: [...leaving] } } });
        await tx.identityFile.deleteMany({ where: { id: { in: replaced.map((file) => file.id) } } });
        if (files.length) await tx.identityFile.createMany({ data: files.map((file) => ({ ...file, createdAt: now })) });
        await tx.identityRegistration.create({ data: { registrationId: change.registrationId, identityId: current.id, createdAt: now } });
        return { row: await tx.identity.findUniqueOrThrow({ where: { id: current.id } }), replaced };
      });
      return outcome ?? 'changed';
    } catch (error) {
      if (isUniqueViolation(error)) return 'taken';
      throw error;
    }
  }

  async byIds(ids: readonly string[]): Promise<IdentityRow[]> {
    return this.prisma.identity.findMany({ where: { id: { in: [...ids] } } });
  }

  /** Each identity's read trail of a page, filtered and ordered (newest first by default): one window query and one grouped count for the page. */
  readsOf(filter: ReadFilter, direction: 'asc' | 'desc'): NestedList<IdentityReadAudit> {
    const ofIdentity = (identityId: string): Prisma.IdentityReadAuditWhereInput => ({
      identityId,
      ...(filter.readBy ? { readBy: filter.readBy } : {}),
      ...(filter.lookup ? { lookup: filter.lookup } : {}),
      ...(filter.part ? { parts: { has: filter.part } } : {}),
      ...(filter.from || filter.to ? { readAt: { ...(filter.from ? { gte: filter.from } : {}), ...(filter.to ? { lt: filter.to } : {}) } } : {}),
    });
    const where = [
      filter.readBy && Prisma.sql`"readBy" = ${filter.readBy}`,
      filter.lookup && Prisma.sql`"lookup" = ${filter.lookup}`,
      filter.part && Prisma.sql`${filter.part} = ANY("parts")`,
      filter.from && Prisma.sql`"readAt" >= ${filter.from}`,
      filter.to && Prisma.sql`"readAt" < ${filter.to}`,
    ];
    const order = [{ readAt: direction }, { id: direction }];
    return windowList<IdentityReadAudit>(
      this.prisma,
      {
        table: 'idrepo_read_audit',
        parentColumn: 'identityId',
        where,
        orderBy: [
          ['readAt', direction],
          ['id', direction],
        ],
      },
      {
        after: (identityId, page) => this.prisma.identityReadAudit.findMany({ where: ofIdentity(identityId), ...pageArgs(page, 'id'), orderBy: order }),
        key: (row) => row.id,
      },
    );
  }
}
