import { Prisma, type PrismaClient, type Session } from '../../../generated/prisma/client.js';
import { connection, newestFirst, pageArgs, type Connection, type PageArgs } from '../../../lib/graph/connection.js';
import { type NestedList } from '../../../lib/graph/nested.js';
import { NEWEST_FIRST, windowList } from '../../../lib/db/window.js';

export type SessionRow = Session;
export type SessionStatus = 'ACTIVE' | 'EXPIRED' | 'REVOKED';

export interface SessionFilter {
  subject?: string | null;
  subjectType?: 'USER' | 'CLIENT' | 'RESIDENT' | null;
  appId?: string | null;
  status?: SessionStatus | null;
}

/** The sessions' table as the rules see it (written by the token service, lib/tokens.ts): the seam a test fills with rows in memory. */
export interface SessionStore {
  byId(id: string): Promise<SessionRow | null>;
  byIds(ids: readonly string[]): Promise<SessionRow[]>;
  /** A page of the sessions the filter selects, newest first (the unique id breaks ties), with the status as of `now`, and their count. */
  page(page: PageArgs, filter: SessionFilter | null | undefined, now: Date): Promise<Connection<SessionRow>>;
  /** The sessions of each user (or client) of a page, newest first: one window query and one grouped count for the page. */
  ofSubjects(subjectType: 'USER' | 'CLIENT', filter: Omit<SessionFilter, 'subject' | 'subjectType'> | null | undefined, now: Date): NestedList<SessionRow>;
}

/** The sessions as logins left them (auth_session), read for the portal: the only code here that touches the table. */
export class SessionStorage implements SessionStore {
  constructor(private readonly prisma: PrismaClient) {}

  private where(filter: SessionFilter | null | undefined, now: Date): Prisma.SessionWhereInput {
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

  byId(id: string): Promise<SessionRow | null> {
    return this.prisma.session.findUnique({ where: { id } });
  }

  byIds(ids: readonly string[]): Promise<SessionRow[]> {
    return this.prisma.session.findMany({ where: { id: { in: [...ids] } } });
  }

  page(page: PageArgs, filter: SessionFilter | null | undefined, now: Date): Promise<Connection<SessionRow>> {
    const where = this.where(filter, now);
    return connection(
      page,
      (session) => session.id,
      (query) => this.prisma.session.findMany({ where, ...pageArgs(query, 'id'), orderBy: newestFirst() }),
      () => this.prisma.session.count({ where }),
    );
  }

  ofSubjects(subjectType: 'USER' | 'CLIENT', filter: Omit<SessionFilter, 'subject' | 'subjectType'> | null | undefined, now: Date): NestedList<SessionRow> {
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
    const ofSubject = (subject: string) => ({ ...this.where({ ...filter, subjectType }, now), subject });
    return windowList<SessionRow>(
      this.prisma,
      { table: 'auth_session', parentColumn: 'subject', where, orderBy: NEWEST_FIRST },
      {
        after: (subject, page) => this.prisma.session.findMany({ where: ofSubject(subject), ...pageArgs(page, 'id'), orderBy: newestFirst() }),
        key: (session) => session.id,
      },
    );
  }
}
