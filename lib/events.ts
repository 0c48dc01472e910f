import type { Logger } from './log.js';

/**
 * What components tell each other happened, by event name with its payload;
 * each component adds the events it publishes (declaration merging beside
 * its services). Names are "<thing>.<what happened>".
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by the components
export interface DomainEvents {}

export type EventName = Extract<keyof DomainEvents, string>;

type Listener<P> = (payload: P) => void | Promise<void>;

interface Subscriber {
  /** who listens, for the log */
  name: string;
  listener: Listener<never>;
}

/**
 * The in-process event bus: a publisher knows nothing of its subscribers.
 * `publish` waits for every listener, in subscription order; a failing one
 * is logged and the others still run (the publisher's change stands).
 * Events every instance must hear ride PostgreSQL NOTIFY beside this (a
 * table's trigger, as revocations and the partner links do).
 */
export class EventBus {
  private readonly subscribers = new Map<string, Subscriber[]>();

  constructor(private readonly logger: Logger) {}

  /** `subscriber` names the listening component; answers how to stop listening. */
  on<K extends EventName>(name: K, subscriber: string, listener: Listener<DomainEvents[K]>): () => void {
    const list = this.subscribers.get(name) ?? [];
    const entry: Subscriber = { name: subscriber, listener: listener };
    list.push(entry);
    this.subscribers.set(name, list);
    return () => {
      const index = list.indexOf(entry);
      if (index >= 0) list.splice(index, 1);
    };
  }

  async publish<K extends EventName>(name: K, payload: DomainEvents[K]): Promise<void> {
    for (const { name: subscriber, listener } of [...(this.subscribers.get(name) ?? [])]) {
      try {
        await (listener as Listener<DomainEvents[K]>)(payload);
      } catch (error) {
        this.logger.warn({ err: error, event: name, subscriber }, 'an event listener failed');
      }
    }
  }
}
