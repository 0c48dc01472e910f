import type { Logger } from '../log.js';
import { StompConnection, type StompHandler, type StompState, type SubscribeOptions } from './stomp.js';

export type { StompHandler as QueueHandler, StompMessage as QueueMessage, SubscribeOptions } from './stomp.js';

/**
 * The message broker as components see it (`deps.queue`): ActiveMQ over
 * STOMP when STOMP_URL is set, else DISABLED. A publish resolves on the
 * broker's receipt (persistent); a subscription acknowledges each message
 * itself (`client-individual`) and survives reconnects.
 */
export interface MessageQueue {
  readonly state: StompState | 'DISABLED';
  /** where it connects, without credentials (printed at start-up), or undefined when disabled */
  readonly description: string | undefined;
  publish(destination: string, body: string | Buffer, headers?: Record<string, string>): Promise<void>;
  subscribe(destination: string, handler: StompHandler, options?: SubscribeOptions): () => void;
  /** Calls `listener` each time the broker connection comes up, reconnects included (never when disabled); returns how to stop. */
  onUp(listener: () => void): () => void;
  close(): Promise<void>;
}

class DisabledQueue implements MessageQueue {
  readonly state = 'DISABLED' as const;
  readonly description = undefined;
  publish(destination: string): Promise<void> {
    return Promise.reject(new Error(`the message queue is disabled (STOMP_URL unset): nothing is sent to ${destination}`));
  }
  subscribe(): () => void {
    return () => undefined;
  }
  onUp(): () => void {
    return () => undefined;
  }
  close(): Promise<void> {
    return Promise.resolve();
  }
}

class StompQueue implements MessageQueue {
  constructor(
    private readonly connection: StompConnection,
    readonly description: string,
  ) {}
  get state() {
    return this.connection.state;
  }
  publish(destination: string, body: string | Buffer, headers?: Record<string, string>): Promise<void> {
    return this.connection.send(destination, body, headers);
  }
  subscribe(destination: string, handler: StompHandler, options?: SubscribeOptions): () => void {
    return this.connection.subscribe(destination, handler, { ack: 'client-individual', ...options });
  }
  onUp(listener: () => void): () => void {
    return this.connection.onUp(listener);
  }
  close(): Promise<void> {
    return this.connection.close();
  }
}

export interface QueueOptions {
  url: string | undefined;
  login?: string;
  passcode?: string;
  logger: Logger;
}

/** Opens the broker connection in the background (the platform serves while ActiveMQ is still starting), or the disabled queue. */
export function openQueue(options: QueueOptions): MessageQueue {
  if (!options.url) return new DisabledQueue();
  const connection = new StompConnection({ url: options.url, login: options.login, passcode: options.passcode, logger: options.logger });
  connection.connect().catch((error: unknown) => options.logger.warn({ err: error }, 'ActiveMQ not reachable yet; reconnecting in the background'));
  return new StompQueue(connection, options.url.replace(/\/\/[^@/]*@/, '//'));
}
