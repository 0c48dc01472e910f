import type { Connection, PageArgs } from '../../lib/graph/connection.js';
import type { NestedList } from '../../lib/graph/nested.js';
import type { Clock } from '../../lib/time.js';
import type { TokenService } from '../../lib/tokens.js';
import { authErrors } from './errors.js';
import type { SessionFilter, SessionRow, SessionStatus, SessionStore } from './storage/sessions.js';

export type { SessionFilter, SessionStatus };

/** Logins as the portal sees them: listed, and ended at once by an admin. */
export class SessionsService {
  constructor(
    private readonly store: SessionStore,
    private readonly tokens: Pick<TokenService, 'revokeSession'>,
    private readonly clock: Clock,
  ) {}

  statusOf(session: SessionRow): SessionStatus {
    const now = this.clock.now();
    if (session.revokedAt && session.revokedAt <= now) return 'REVOKED';
    return session.expiresAt <= now ? 'EXPIRED' : 'ACTIVE';
  }

  /** Newest first (the unique id breaks ties). */
  sessions(page: PageArgs, filter?: SessionFilter | null): Promise<Connection<SessionRow>> {
    return this.store.page(page, filter, this.clock.now());
  }

  /** The logins of each user (or client) of a page, newest first: one window query and one grouped count for the page. */
  sessionsOfSubjects(subjectType: 'USER' | 'CLIENT', filter: Omit<SessionFilter, 'subject' | 'subjectType'> | null | undefined): NestedList<SessionRow> {
    return this.store.ofSubjects(subjectType, filter, this.clock.now());
  }

  async sessionsById(ids: readonly string[]): Promise<Map<string, SessionRow>> {
    const rows = await this.store.byIds(ids);
    return new Map(rows.map((row) => [row.id, row]));
  }

  /** Ends the session at once: every token it handed out is refused from now on, on every instance. */
  async revoke(id: string): Promise<SessionRow> {
    if (!(await this.store.byId(id))) throw authErrors.noSuchSession(id);
    await this.tokens.revokeSession(id);
    return (await this.store.byId(id))!;
  }
}
