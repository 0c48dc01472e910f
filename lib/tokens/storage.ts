import { Prisma, type PrismaClient } from '../../generated/prisma/client.js';
import { underLock, type Tx } from '../db/lock.js';
import { PlatformMarkers } from '../db/markers.js';
import { DERIVATION_ROOT_MARKER } from '../master-key.js';
import type { SealedColumnOf } from '../master-key/storage.js';
import { SIGNING_KEY_PURPOSE } from './signing-keys.js';

/** A user or client of the auth manager, or a resident signed in by UIN or VID (subject: the identity's opaque id). */
export type SubjectType = 'user' | 'client' | 'resident';

/** The subject type of a token issued to a resident: its subject is the identity's opaque id, never the UIN. */
export const RESIDENT_SUBJECT: SubjectType = 'resident';

/** One issued token as it is recorded (auth_token). */
export interface TokenRow {
  id: string;
  sessionId: string;
  subject: string;
  subjectType: SubjectType;
  kind: 'access' | 'refresh';
  appId: string;
  issuedAt: Date;
  expiresAt: Date;
}

/** One login (auth_session). */
export interface SessionRow {
  id: string;
  subject: string;
  subjectType: SubjectType;
  appId: string;
  clientAddress: string | null;
  createdAt: Date;
  expiresAt: Date;
}

/** What recording tokens does to their session: open it, or extend it while it is live (refresh). */
export type SessionWrite = { open: SessionRow } | { extend: string; until: Date; at: Date };

/** A token signing key as it is stored: the private key wrapped under the master key. */
export interface SigningKeyRow {
  /** the `kid` of the tokens it signs */
  id: string;
  privateKey: string;
  publicKey: string;
}

/** A stored signing key: whether it is the one that signs, and when it was made (the previous key retired then). */
export interface StoredSigningKey extends SigningKeyRow {
  active: boolean;
  createdAt: Date;
}

/** auth_signing_key as the signing keys (signing-keys.ts) use it. */
export interface SigningKeyTable {
  /** every key, oldest first */
  signingKeys(): Promise<StoredSigningKey[]>;
  /** stores the first key unless an instance starting at the same time stored one first (no unique violation) */
  offerSigningKey(row: SigningKeyRow): Promise<void>;
  /** makes `row` the key that signs from `at`, the others no longer active, in one transaction; answers the kids it retired */
  rotateSigningKey(row: SigningKeyRow, at: Date): Promise<string[]>;
}

/** Whose tokens a revocation ends. */
export type RevokedTokens = { subject: string } | { sessionId: string };

/**
 * The token tables (auth_signing_key, auth_token, auth_session) as the token
 * service and the revocation list use them: the only code of lib that
 * touches them.
 */
export class TokenStorage implements SigningKeyTable {
  constructor(private readonly prisma: PrismaClient) {}

  /** One key by its kid (the first one's tells a tool the platform has started on this database). */
  signingKey(id: string): Promise<SigningKeyRow | null> {
    return this.prisma.signingKey.findUnique({ where: { id } });
  }

  signingKeys(): Promise<StoredSigningKey[]> {
    return this.prisma.signingKey.findMany({ orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
  }

  async offerSigningKey(row: SigningKeyRow): Promise<void> {
    await this.prisma.signingKey.createMany({ data: [row], skipDuplicates: true });
  }

  /** Under a lock: two rotations at once end with one active key. */
  rotateSigningKey(row: SigningKeyRow, at: Date): Promise<string[]> {
    return underLock(this.prisma, 'auth_signing_key', async (tx) => {
      const retired = await tx.signingKey.findMany({ where: { active: true }, select: { id: true } });
      await tx.signingKey.updateMany({ where: { active: true }, data: { active: false } });
      await tx.signingKey.create({ data: { ...row, active: true, createdAt: at } });
      return retired.map(({ id }) => id);
    });
  }

  /** The master key's derivation root, sealed by a rewrap (null before any): the first thing a start opens. */
  sealedDerivationRoot(): Promise<string | null> {
    return new PlatformMarkers(this.prisma).read(DERIVATION_ROOT_MARKER);
  }

  /**
   * Records tokens in one statement, together with the session they open or,
   * on refresh, the extension of their live session: logins are the
   * platform's hottest write, and raw SQL skips the ORM's per-query planning.
   * On refresh the session row is locked by the same statement, and nothing
   * is inserted once it is revoked, so a refresh racing revokeSession either
   * fails or hands out tokens that the revocation then ends. Answers whether
   * the tokens were recorded.
   */
  async record(tokens: TokenRow[], session: SessionWrite): Promise<boolean> {
    const values = Prisma.join(
      tokens.map(
        (row) =>
          Prisma.sql`(${row.id}, ${row.sessionId}, ${row.subject}, ${row.subjectType}, ${row.kind}, ${row.appId}, ${row.issuedAt}::timestamp(3), ${row.expiresAt}::timestamp(3))`,
      ),
    );
    const columns = Prisma.sql`auth_token (id, "sessionId", subject, "subjectType", kind, "appId", "issuedAt", "expiresAt")`;
    if ('open' in session) {
      const { id, subject, subjectType, appId, clientAddress, createdAt, expiresAt } = session.open;
      await this.prisma.$executeRaw`WITH opened AS (INSERT INTO auth_session (id, subject, "subjectType", "appId", "clientAddress", "createdAt", "expiresAt")
          VALUES (${id}, ${subject}, ${subjectType}, ${appId}, ${clientAddress}, ${createdAt}, ${expiresAt}))
        INSERT INTO ${columns} VALUES ${values}`;
      return true;
    }
    const inserted = await this.prisma.$executeRaw`WITH live AS (UPDATE auth_session SET "refreshedAt" = ${session.at}, "expiresAt" = ${session.until}
          WHERE id = ${session.extend} AND "revokedAt" IS NULL RETURNING id)
        INSERT INTO ${columns} SELECT v.* FROM (VALUES ${values}) AS v WHERE EXISTS (SELECT 1 FROM live)`;
    return inserted > 0;
  }

  /** Retires a refresh token still live at `now`: false when it was rotated, revoked or is unknown. */
  async rotate(id: string, now: Date): Promise<boolean> {
    const { count } = await this.prisma.accessToken.updateMany({
      where: { id, rotatedAt: null, OR: [{ revokedAt: null }, { revokedAt: { gt: now } }] },
      data: { rotatedAt: now },
    });
    return count === 1;
  }

  /** Whether a token was rotated already (a refresh token presented twice). */
  async wasRotated(id: string): Promise<boolean> {
    return !!(await this.prisma.accessToken.findUnique({ where: { id }, select: { rotatedAt: true } }))?.rotatedAt;
  }

  /**
   * Ends the live tokens matching `where` at `now`, in one statement (no token
   * issued between a read and a write escapes), their sessions first; the
   * trigger tells the other instances.
   */
  async revoke(where: RevokedTokens, now: Date): Promise<{ id: string; expiresAt: Date }[]> {
    await this.prisma.session.updateMany({
      where: { ...('subject' in where ? { subject: where.subject } : { id: where.sessionId }), revokedAt: null },
      data: { revokedAt: now },
    });
    const match = 'subject' in where ? Prisma.sql`subject = ${where.subject}` : Prisma.sql`"sessionId" = ${where.sessionId}`;
    return this.prisma.$queryRaw<{ id: string; expiresAt: Date }[]>`
      UPDATE auth_token SET "revokedAt" = ${now}
      WHERE ${match} AND ("revokedAt" IS NULL OR "revokedAt" > ${now}) AND "expiresAt" > ${now}
      RETURNING id, "expiresAt"`;
  }

  /** The tokens revoked and not yet expired at `now`: the revocation list's start. */
  async revokedLive(now: Date): Promise<{ id: string; revokedAt: Date; expiresAt: Date }[]> {
    const rows = await this.prisma.accessToken.findMany({
      where: { revokedAt: { not: null }, expiresAt: { gt: now } },
      select: { id: true, revokedAt: true, expiresAt: true },
    });
    return rows.map((row) => ({ id: row.id, revokedAt: row.revokedAt!, expiresAt: row.expiresAt }));
  }

  /** A token's revocation, read from the table (the revocation list while its listener is down); undefined for an unknown token. */
  async revokedAt(id: string): Promise<Date | null | undefined> {
    const row = await this.prisma.accessToken.findUnique({ where: { id }, select: { revokedAt: true } });
    return row ? row.revokedAt : undefined;
  }
}

/** The signing keys' private halves as a rewrap of the master key reads and rewrites them (lib/master-key/rewrap.ts). */
export const sealedSigningKeys: SealedColumnOf = (db: PrismaClient | Tx) => ({
  name: 'token signing keys',
  list: async () =>
    (await db.signingKey.findMany({ select: { id: true, privateKey: true }, orderBy: { id: 'asc' } })).map((row) => ({
      id: row.id,
      purpose: SIGNING_KEY_PURPOSE,
      sealed: row.privateKey,
    })),
  put: async (id, sealed) => {
    await db.signingKey.update({ where: { id }, data: { privateKey: sealed } });
  },
});
