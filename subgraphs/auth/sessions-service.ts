import { Prisma, type PrismaClient, type Session } from '../../generated/prisma/client.js';
import { connection, newestFirst, pageArgs, type Connection, type PageArgs } from '../../lib/graph/connection.js';
import { NEWEST_FIRST, windowList, type NestedList } from '../../lib/graph/nested.js';
import type { PlatformDeps } from '../../lib/deps.js';
import type { Clock } from '../../lib/time.js';
import type { TokenService } from '../../lib/tokens.js';
import { authErrors } from './errors.js';

export type SessionStatus = 'ACTIVE' | 'EXPIRED' | 'REVOKED';

export interface SessionFilter {
  subject?: string | null;
  subjectType?: 'USER' | 'CLIENT' | 'RESIDENT' | null;
  appId?: string | null;
  status?: SessionStatus | null;
}

/** Logins as the portal sees them: listed, and ended at once by an admin. */
export class SessionsService {
  private readonly prisma: PrismaClient;
  private readonly tokens: TokenService;
  private readonly clock: Clock;

  constructor(deps: PlatformDeps) {
    this.prisma = deps.prisma;
    this.tokens = deps.tokens;
    this.clock = deps.clock;
  }

  statusOf(session: Session): SessionStatus {
    const now = this.clock.now();
    if (session.revokedAt && session.revokedAt <= now) return 'REVOKED';
    return session.expiresAt <= now ? 'EXPIRED' : 'ACTIVE';
  }

  private where(filter: SessionFilter | null | undefined): Prisma.SessionWhereInput {
    const now = this.clock.now();
    const byStatus: Record<SessionStatus, Prisma.SessionWhereInput> = {
      REVOKED: { revokedAt: { lte: now } },
      EXPIRED: { expiresAt: { lte: now }, OR: [{ revokedAt: null }, { revokedAt: { gt: now } }] },
      ACTIVE: { expiresAt: { gt: now }, OR: [{ revokedAt: null }, { revokedAt: { gt: now } }] },
    };
    return {
      ...(filter?.subject ? { subject: filter.subject } : {}),
      ...(filter?.subjectType ? { subjectType: filter.subjectType.toLowerCase() } : {}),
      ...(filter?.appId ? { appId: filter.appId } : {}),
      ...(filter?.status ? byStatus[filter.status] : {}),
    };
  }

  /** Newest first (the unique id breaks ties). */
  sessions(page: PageArgs, filter?: SessionFilter | null): Promise<Connection<Session>> {
    const where = this.where(filter);
    return connection(
      page,
      (session) => session.id,
      (query) => this.prisma.session.findMany({ where, ...pageArgs(query, 'id'), orderBy: newestFirst() }),
      () => this.prisma.session.count({ where }),
    );
  }

  /** The logins of each user (or client) of a page, newest first: one window query and one grouped count for the page. */
  sessionsOfSubjects(subjectType: 'USER' | 'CLIENT', filter: Omit<SessionFilter, 'subject' | 'subjectType'> | null | undefined): NestedList<Session> {
    const now = this.clock.now();
    const live = Prisma.sql`("revokedAt" IS NULL OR "revokedAt" > ${now})`;
    const byStatus: Record<SessionStatus, Prisma.Sql> = {
      REVOKED: Prisma.sql`"revokedAt" <= ${now}`,
      EXPIRED: Prisma.sql`"expiresAt" <= ${now} AND ${live}`,
      ACTIVE: Prisma.sql`"expiresAt" > ${now} AND ${live}`,
    };
    const where = [
      Prisma.sql`"subjectType" = ${subjectType.toLowerCase()}`,
      filter?.appId && Prisma.sql`"appId" = ${filter.appId}`,
      filter?.status && byStatus[filter.status],
    ];
    const ofSubject = (subject: string) => ({ ...this.where({ ...filter, subjectType }), subject });
    return windowList<Session>(
      this.prisma,
      { table: 'auth_session', parentColumn: 'subject', where, orderBy: NEWEST_FIRST },
      {
        after: (subject, page) => this.prisma.session.findMany({ where: ofSubject(subject), ...pageArgs(page, 'id'), orderBy: newestFirst() }),
        key: (session) => session.id,
      },
    );
  }

  async sessionsById(ids: readonly string[]): Promise<Map<string, Session>> {
    const rows = await this.prisma.session.findMany({ where: { id: { in: [...ids] } } });
    return new Map(rows.map((row) => [row.id, row]));
  }

  /** Ends the session at once: every token it handed out is refused from now on, on every instance. */
  async revoke(id: string): Promise<Session> {
    if (!(await this.prisma.session.findUnique({ where: { id } }))) throw authErrors.noSuchSession(id);
    await this.tokens.revokeSession(id);
    return (await this.prisma.session.findUnique({ where: { id } }))!;
  }
}
