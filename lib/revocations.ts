import type { Database, Subscription } from './db/client.js';
import { listenToTriggers } from './db/triggers.js';
import type { Logger } from './log.js';
import type { Clock } from './time.js';
import type { TokenStorage } from './tokens/storage.js';

export const REVOCATION_CHANNEL = 'auth_token_revoked';

/**
 * Every change that ends a token early is announced, whichever path made it
 * (logout, a lock, a reset, a revoked session, or an operator's UPDATE):
 * lowering a token's recorded expiry schedules its revocation at that time,
 * and each new revokedAt is sent on REVOCATION_CHANNEL as
 * "<id> <revokedAt ms> <expiresAt ms>".
 */
const TRIGGER_SQL = [
  `CREATE OR REPLACE FUNCTION auth_token_schedule_revocation() RETURNS trigger AS $$
   BEGIN
     IF NEW."expiresAt" < OLD."expiresAt" AND (NEW."revokedAt" IS NULL OR NEW."revokedAt" > NEW."expiresAt") THEN
       NEW."revokedAt" := NEW."expiresAt";
     END IF;
     RETURN NEW;
   END $$ LANGUAGE plpgsql`,
  `CREATE OR REPLACE TRIGGER auth_token_schedule_revocation BEFORE UPDATE ON auth_token
   FOR EACH ROW EXECUTE FUNCTION auth_token_schedule_revocation()`,
  `CREATE OR REPLACE FUNCTION auth_token_announce_revocation() RETURNS trigger AS $$
   BEGIN
     IF NEW."revokedAt" IS NOT NULL AND NEW."revokedAt" IS DISTINCT FROM OLD."revokedAt" THEN
       PERFORM pg_notify('${REVOCATION_CHANNEL}', NEW.id || ' ' || (extract(epoch FROM NEW."revokedAt") * 1000)::bigint || ' ' || (extract(epoch FROM NEW."expiresAt") * 1000)::bigint);
     END IF;
     RETURN NULL;
   END $$ LANGUAGE plpgsql`,
  `CREATE OR REPLACE TRIGGER auth_token_announce_revocation AFTER UPDATE ON auth_token
   FOR EACH ROW EXECUTE FUNCTION auth_token_announce_revocation()`,
];

interface Entry {
  revokedAt: number;
  expiresAt: number;
}

const SWEEP_EVERY_MS = 60_000;

/**
 * The revoked, unexpired token ids, in memory: loaded at start, kept current
 * by LISTEN/NOTIFY, reloaded after the listening connection comes back. While
 * it is down, each check asks the database instead. So no call pays a round
 * trip to check a token, and a revocation holds on every instance within a
 * notification's travel time.
 */
export class RevocationList {
  private readonly entries = new Map<string, Entry>();
  private live = false;
  private subscription: Subscription | undefined;
  private lastSweep = 0;

  constructor(
    /** where the revocations are announced (LISTEN), and whose triggers announce them */
    private readonly database: Pick<Database, 'prisma' | 'subscribe'>,
    private readonly store: Pick<TokenStorage, 'revokedLive' | 'revokedAt'>,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  async start(): Promise<void> {
    this.subscription = await listenToTriggers(this.database, REVOCATION_CHANNEL, TRIGGER_SQL, {
      message: (payload) => this.apply(payload),
      up: () => this.reload(),
      down: () => {
        this.live = false;
        this.logger.warn('revocation notifications lost: checking tokens against the database until the listener is back');
      },
    });
  }

  /** True while checks are answered from memory (the listener is up and the list loaded). */
  get isLive(): boolean {
    return this.live;
  }

  /** The listening connection's name in pg_stat_activity (PostgreSQL). */
  get connectionName(): string | undefined {
    return this.subscription?.connectionName;
  }

  async stop(): Promise<void> {
    this.live = false;
    await this.subscription?.close();
  }

  private async reload(): Promise<void> {
    const now = this.clock.now();
    const rows = await this.store.revokedLive(now);
    this.entries.clear();
    for (const row of rows) this.entries.set(row.id, { revokedAt: row.revokedAt.getTime(), expiresAt: row.expiresAt.getTime() });
    this.live = true;
    this.logger.debug({ revoked: rows.length }, 'revocation list loaded');
  }

  private apply(payload: string): void {
    const [id, revokedAt, expiresAt] = payload.split(' ');
    if (id && revokedAt && expiresAt) this.note(id, Number(revokedAt), Number(expiresAt));
  }

  /** Records a revocation at once (the revoking instance does not wait for its own notification). */
  note(id: string, revokedAt: number, expiresAt: number): void {
    const known = this.entries.get(id);
    if (!known || revokedAt < known.revokedAt) this.entries.set(id, { revokedAt, expiresAt });
  }

  /** Whether the token is revoked at `now`: from memory, or from the database while the listener is down. */
  async isRevoked(id: string): Promise<boolean> {
    const now = this.clock.now().getTime();
    this.sweep(now);
    if (this.live) {
      const entry = this.entries.get(id);
      return entry !== undefined && entry.revokedAt <= now;
    }
    const revokedAt = await this.store.revokedAt(id);
    return revokedAt === undefined || (revokedAt !== null && revokedAt.getTime() <= now);
  }

  /** Expired tokens are refused by their exp anyway: their entries go. */
  private sweep(now: number): void {
    if (now - this.lastSweep < SWEEP_EVERY_MS) return;
    this.lastSweep = now;
    for (const [id, entry] of this.entries) if (entry.expiresAt <= now) this.entries.delete(id);
  }
}
