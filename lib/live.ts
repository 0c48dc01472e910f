import type { Database, Subscription } from './db/client.js';
import { listenToTriggers } from './db/triggers.js';
import type { Logger } from './log.js';

/** The channel every change a live query watches is announced on, as "<topic> <key>". */
export const LIVE_CHANNEL = 'platform_live';

/** A table whose every written row announces its topic, with the value of one of its columns as the key. */
export interface LiveTable {
  topic: string;
  table: string;
  /** the column whose value travels as the key (a registration's rid): a subscription to one key ignores the others */
  keyColumn: string;
}

/**
 * What a component's subscriptions watch: each is the query of the same
 * name, answered again when one of its topics changes (for one key, when the
 * subscription names it by `keyArgument`), and every `refreshSeconds` when
 * its answer also moves with time (a registration becomes stuck by waiting).
 */
export interface LiveSubscription {
  topics: readonly string[];
  keyArgument?: string;
  refreshSeconds?: number;
}

/** A component's live declarations: the tables that announce changes and the subscriptions that watch them. */
export interface LiveDeclaration {
  tables: readonly LiveTable[];
  subscriptions: Readonly<Record<string, LiveSubscription>>;
}

const NAME = /^[a-z][a-z0-9_]*$/;

/** One trigger function for every table; each table's trigger passes its topic and key column. */
function triggerSql(tables: readonly LiveTable[]): string[] {
  return [
    `CREATE OR REPLACE FUNCTION platform_live_announce() RETURNS trigger AS $$
     BEGIN
       PERFORM pg_notify('${LIVE_CHANNEL}', TG_ARGV[0] || ' ' || COALESCE(
         (CASE WHEN TG_OP = 'DELETE' THEN row_to_json(OLD) ELSE row_to_json(NEW) END) ->> TG_ARGV[1], ''));
       RETURN NULL;
     END $$ LANGUAGE plpgsql`,
    ...tables.map(({ topic, table, keyColumn }) => {
      // Names from components' declarations, never from a caller: checked all the same, as they are spliced into SQL.
      if (!NAME.test(topic) || !NAME.test(table) || !/^[A-Za-z][A-Za-z0-9_]*$/.test(keyColumn)) throw new Error(`live table ${table}: bad name`);
      return `CREATE OR REPLACE TRIGGER ${table}_live AFTER INSERT OR UPDATE OR DELETE ON ${table}
              FOR EACH ROW EXECUTE FUNCTION platform_live_announce('${topic}', '${keyColumn}')`;
    }),
  ];
}

/** Told of a change of its topic: the key of the row, or null for "anything may have changed" (after a lost connection). */
export type ChangeListener = (key: string | null) => void;

/**
 * The changes of every instance, heard by this one: the declared tables'
 * triggers NOTIFY each written row (so a change made by another instance, a
 * worker or an operator's SQL is heard too), and one LISTENing connection
 * hands them to the live queries of this process. After the connection comes
 * back, every listener is told that anything may have changed.
 */
export class LiveChanges {
  private readonly listeners = new Map<string, Set<ChangeListener>>();
  private subscription: Subscription | undefined;

  constructor(
    private readonly database: Pick<Database, 'prisma' | 'subscribe'>,
    private readonly tables: readonly LiveTable[],
    private readonly logger: Logger,
  ) {}

  async start(): Promise<void> {
    let lost = false;
    this.subscription = await listenToTriggers(this.database, LIVE_CHANNEL, triggerSql(this.tables), {
      message: (payload) => this.hear(payload),
      up: () => {
        if (lost) for (const topic of this.listeners.keys()) this.tell(topic, null);
        lost = false;
      },
      down: () => {
        lost = true;
        this.logger.warn('live change notifications lost: subscriptions answer again once the listener is back');
      },
    });
  }

  /** Listens to one topic; answers how to stop. */
  on(topic: string, listener: ChangeListener): () => void {
    const set = this.listeners.get(topic) ?? new Set<ChangeListener>();
    this.listeners.set(topic, set);
    set.add(listener);
    return () => {
      set.delete(listener);
      if (!set.size) this.listeners.delete(topic);
    };
  }

  /** How many live queries listen, over every topic (metrics, tests). */
  get listening(): number {
    let count = 0;
    for (const set of this.listeners.values()) count += set.size;
    return count;
  }

  async close(): Promise<void> {
    await this.subscription?.close();
    this.subscription = undefined;
    this.listeners.clear();
  }

  private hear(payload: string): void {
    const space = payload.indexOf(' ');
    if (space < 0) return;
    this.tell(payload.slice(0, space), payload.slice(space + 1));
  }

  private tell(topic: string, key: string | null): void {
    for (const listener of [...(this.listeners.get(topic) ?? [])]) {
      try {
        listener(key);
      } catch (error) {
        this.logger.warn({ err: error, topic }, 'a live query failed to hear a change');
      }
    }
  }
}
