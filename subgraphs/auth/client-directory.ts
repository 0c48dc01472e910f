import type { Logger } from '../../lib/log.js';
import type { ClientStore, ClientSubscription, LoginClient } from './storage/clients.js';

export type { LoginClient };

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
  private subscription: ClientSubscription | undefined;

  constructor(
    private readonly clients: Pick<ClientStore, 'loginClient' | 'listen'>,
    private readonly logger: Logger,
  ) {}

  async start(): Promise<void> {
    this.subscription = await this.clients.listen({
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
    const row = await this.clients.loginClient(clientId);
    if (row && this.live && (this.versions.get(clientId) ?? 0) === version) {
      if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
      this.entries.set(clientId, row);
    }
    return row;
  }
}
