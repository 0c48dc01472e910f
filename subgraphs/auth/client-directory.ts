import type { Client, PrismaClient } from '../../generated/prisma/client.js';
import type { Database, Subscription } from '../../lib/db/client.js';
import { listenToTriggers } from '../../lib/db/triggers.js';
import type { Logger } from '../../lib/log.js';

export type LoginClient = Pick<Client, 'clientId' | 'secretHash' | 'roles' | 'appIds' | 'isActive'>;

const CHANNEL = 'auth_client_changed';
const TRIGGER_SQL = [
  `CREATE OR REPLACE FUNCTION auth_client_announce_change() RETURNS trigger AS $$
   BEGIN
     PERFORM pg_notify('${CHANNEL}', OLD."clientId");
     RETURN NULL;
   END $$ LANGUAGE plpgsql`,
  `CREATE OR REPLACE TRIGGER auth_client_announce_change AFTER UPDATE OR DELETE ON auth_client
   FOR EACH ROW EXECUTE FUNCTION auth_client_announce_change()`,
];
const MAX_ENTRIES = 10_000;

/**
 * The clients that log in, read once and kept in memory: a machine login then
 * costs no look-up. Every change to a client row (a rotated secret, new roles,
 * deactivation) is announced by a trigger and drops the entry on every
 * instance; while the listener is down, logins read the database.
 */
export class ClientDirectory {
  private readonly entries = new Map<string, LoginClient>();
  /** bumped by every announcement: a read that started before one is not kept */
  private readonly versions = new Map<string, number>();
  private live = false;
  private subscription: Subscription | undefined;

  constructor(
    private readonly database: Pick<Database, 'prisma' | 'subscribe'>,
    private readonly logger: Logger,
  ) {}

  private get prisma(): PrismaClient {
    return this.database.prisma;
  }

  async start(): Promise<void> {
    this.subscription = await listenToTriggers(this.database, CHANNEL, TRIGGER_SQL, {
      message: (clientId) => {
        this.entries.delete(clientId);
        this.versions.set(clientId, (this.versions.get(clientId) ?? 0) + 1);
      },
      up: () => {
        this.entries.clear();
        this.live = true;
      },
      down: () => {
        this.live = false;
        this.entries.clear();
        this.logger.warn('client change notifications lost: client logins read the database until the listener is back');
      },
    });
  }

  async stop(): Promise<void> {
    this.live = false;
    await this.subscription?.close();
  }

  async get(clientId: string): Promise<LoginClient | null> {
    const cached = this.live ? this.entries.get(clientId) : undefined;
    if (cached) return cached;
    const version = this.versions.get(clientId) ?? 0;
    const [row] = await this.prisma.$queryRaw<LoginClient[]>`
      SELECT "clientId", "secretHash", roles, "appIds", "isActive" FROM auth_client WHERE "clientId" = ${clientId}`;
    if (row && this.live && (this.versions.get(clientId) ?? 0) === version) {
      if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
      this.entries.set(clientId, row);
    }
    return row ?? null;
  }
}
