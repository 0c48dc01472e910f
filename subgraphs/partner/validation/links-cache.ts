import type { Database, Subscription } from '../../../lib/db/client.js';
import type { EventBus, EventName } from '../../../lib/events.js';
import type { Logger } from '../../../lib/log.js';
import { listenToLinkChanges } from './storage.js';

/** The writes of this process that can turn a passing validation into a failing one, or change its answer. */
const LINK_EVENTS = ['license.changed', 'misp.changed', 'partner.changed', 'apiKey.changed', 'policy.changed'] as const satisfies readonly EventName[];
const MAX_ENTRIES = 10_000;

/**
 * The links of validations that passed, kept in memory so that ID
 * authentication's calls cost no database round trip. Emptied at once when
 * this process writes a link (the owners' domain events, heard before the
 * write's caller is answered), and on every other instance by the tables'
 * trigger (LISTEN); while the listener is down nothing is kept.
 * A read that began before an announcement is not kept (the version moved).
 */
export class LinksCache<T> {
  private readonly entries = new Map<string, T>();
  private version = 0;
  private live = false;
  private subscription?: Subscription;
  private readonly stopHearing: (() => void)[];

  constructor(
    private readonly logger: Logger,
    events: Pick<EventBus, 'on'>,
  ) {
    this.stopHearing = LINK_EVENTS.map((name) => events.on(name, 'partner-validation', () => this.forget()));
  }

  private forget(): void {
    this.version++;
    this.entries.clear();
  }

  async start(database: Pick<Database, 'prisma' | 'subscribe'>): Promise<void> {
    this.subscription = await listenToLinkChanges(database, {
      message: () => this.forget(),
      up: () => {
        this.forget();
        this.live = true;
      },
      down: () => {
        this.live = false;
        this.forget();
        this.logger.warn('partner link notifications lost: validatePartnerMisp reads the database until the listener is back');
      },
    });
  }

  async stop(): Promise<void> {
    this.live = false;
    for (const stop of this.stopHearing) stop();
    await this.subscription?.close();
  }

  get(key: string): T | undefined {
    return this.live ? this.entries.get(key) : undefined;
  }

  /** Reads through the cache: `read` runs on a miss; its answer is kept when `keep` says so and nothing changed meanwhile. */
  async through(key: string, read: () => Promise<T>, keep: (value: T) => boolean): Promise<T> {
    const cached = this.get(key);
    if (cached) return cached;
    const version = this.version;
    const value = await read();
    if (this.live && version === this.version && keep(value)) {
      if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
      this.entries.set(key, value);
    }
    return value;
  }
}
