import { Prisma, type PrismaClient } from '../../generated/prisma/client.js';

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

/** The stored token signing key: the private key wrapped under the master key. */
export interface SigningKeyRow {
  id: string;
  privateKey: string;
  publicKey: string;
}

/** Whose tokens a revocation ends. */
export type RevokedTokens = { subject: string } | { sessionId: string };

/**
 * The token tables (auth_signing_key, auth_token, auth_session) as the token
 * service and the revocation list use them: the only code of lib that
 * touches them.
 */
export class TokenStorage {
  constructor(private readonly prisma: PrismaClient) {}

  signingKey(id: string): Promise<SigningKeyRow | null> {
    return this.prisma.signingKey.findUnique({ where: { id } });
  }

  /** Stores the key unless an instance starting at the same time stored one first (no unique violation); answers the stored one. */
  async offerSigningKey(row: SigningKeyRow): Promise<SigningKeyRow> {
    await this.prisma.signingKey.createMany({ data: [row], skipDuplicates: true });
    return this.prisma.signingKey.findUniqueOrThrow({ where: { id: row.id } });
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
