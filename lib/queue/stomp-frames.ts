import type stompit from 'stompit';
import type { Logger } from '../log.js';

// The STOMP connection's vocabulary (messages, options, sessions) and the frame-level fixes and
// helpers it uses over stompit (lib/queue/stomp.ts).

export type StompState = 'UP' | 'DOWN' | 'CONNECTING';
export type AckMode = 'client-individual' | 'auto';

export interface StompMessage {
  body: Buffer;
  headers: Record<string, string>;
  /** Acknowledge on the connection that delivered it; a no-op in `auto` mode or once that connection is gone (the broker redelivers). */
  ack(): void;
  /** ActiveMQ sends a NACKed message straight to its dead-letter queue (no broker-side retries). */
  nack(): void;
}

export type StompHandler = (msg: StompMessage) => Promise<void> | void;

export interface SendOptions {
  /**
   * false: no `content-length`, the frame ends at its NUL, as a JMS producer's TextMessage arrives
   * (for a peer that takes a length-framed message for bytes); the body must hold no NUL. Default true.
   */
  contentLength?: boolean;
}

export interface SubscribeOptions {
  ack?: AckMode;
  /** Extra SUBSCRIBE headers, e.g. `activemq.prefetchSize` or `selector`. */
  headers?: Record<string, string>;
}

export interface StompConnectionOptions {
  /** `stomp://host:port` (`stomp+ssl://` for TLS); `stomp://login:passcode@host:port` also works. */
  url: string;
  login?: string;
  passcode?: string;
  logger?: Logger;
  /** First reconnect delay; doubles per failed attempt up to `maxReconnectDelayMs`. Default 1000. */
  reconnectDelayMs?: number;
  maxReconnectDelayMs?: number;
  /** Heart-beat offered both ways (ms); 0 turns it off. Default 10000: detects a dead peer that never sent FIN. */
  heartbeatMs?: number;
  /** Bound on TCP connect + CONNECT/CONNECTED. Default 10000. */
  connectTimeoutMs?: number;
  /** Bound on waiting for a SEND's RECEIPT. Default 30000. */
  receiptTimeoutMs?: number;
  /** Bound on close() waiting for running handlers and the DISCONNECT receipt. Default 5000. */
  closeTimeoutMs?: number;
}

export interface Subscription {
  id: string;
  destination: string;
  ack: AckMode;
  headers: Record<string, string>;
  handler: StompHandler;
}

/** One TCP/STOMP session; a reconnect makes a new one. */
export interface Session {
  client: stompit.Client;
  live: Map<string, ReturnType<stompit.Client['subscribe']>>;
  pendingReceipts: Set<(error: Error) => void>;
  handlers: Set<Promise<void>>;
}

type CommandHandler = (this: stompit.Client, frame: IncomingFrame, beforeSendResponse: () => void) => void;
type IncomingFrame = NodeJS.ReadableStream & { headers: Record<string, string> };
const MAX_ERROR_BODY = 4096;

/**
 * stompit 1.0 mishandles an ERROR frame with `content-type:text/plain` and a `content-length` up
 * to 4096: it calls destroy() on the frame instead of the client, so the error is thrown as an
 * uncaught exception (crashing the process, message and all) and the client only sees the socket
 * end. Every time stompit installs its command handlers, ours replaces its ERROR handler.
 */
export function fixErrorFrames(client: stompit.Client): void {
  const onError: CommandHandler = function (frame) {
    const chunks: Buffer[] = [];
    let size = 0;
    frame.on('data', (chunk: Buffer) => {
      if (size < MAX_ERROR_BODY) chunks.push(chunk);
      size += chunk.length;
    });
    frame.once('end', () => {
      const error = this.createApplicationError(frame.headers.message ?? 'server sent ERROR frame');
      const body = Buffer.concat(chunks).subarray(0, MAX_ERROR_BODY).toString('utf8');
      if (body) Object.assign(error, { longMessage: body });
      this.destroy(error);
    });
  };
  const install = client.setCommandHandlers.bind(client);
  client.setCommandHandlers = (handlers) => install({ ...handlers, ERROR: onError as unknown as Parameters<stompit.Client['setCommandHandlers']>[0][string] });
}

export function readBody(frame: NodeJS.ReadableStream): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    frame.on('data', (chunk: Buffer | string) => chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk)));
    frame.once('end', () => resolve(Buffer.concat(chunks)));
    frame.once('error', reject);
  });
}

/** True when `promise` settled within `ms`. */
export async function withTimeout(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([
      promise.then(
        () => true as const,
        () => true as const,
      ),
      expired,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** Sends a frame and resolves on the broker's RECEIPT; rejects when none comes in time or the session drops first. */
export function sendWithReceipt(session: Session, headers: Record<string, string>, bytes: Buffer, receiptTimeoutMs: number): Promise<void> {
  const destination = headers.destination;
  return new Promise<void>((resolve, reject) => {
    let settled = false;
    const finish = (error?: Error): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      session.pendingReceipts.delete(onDrop);
      if (error) reject(error);
      else resolve();
    };
    const onDrop = (error: Error): void => finish(new Error(`message to ${destination} not confirmed: ${error.message}`));
    const timer = setTimeout(() => finish(new Error(`no RECEIPT for message to ${destination} within ${receiptTimeoutMs} ms`)), receiptTimeoutMs);
    session.pendingReceipts.add(onDrop);
    // stompit's onError would add a client 'error' listener per send; drops are handled in onDrop instead.
    const sendOptions = { onReceipt: () => finish() } as unknown as stompit.Client.SendOptions;
    session.client.send(headers, sendOptions).end(bytes);
  });
}

/** An error's message with an ERROR frame's body folded in (ActiveMQ puts a Java stack trace there, whose first line is enough). */
export function errorText(error: unknown): string {
  const raw = error instanceof Error ? error : new Error(String(error));
  let message = raw.message;
  const longMessage = (raw as { longMessage?: unknown }).longMessage;
  const detail = typeof longMessage === 'string' ? (longMessage.trim().split('\n')[0] ?? '').slice(0, 500) : '';
  if (detail && !message.includes(detail) && !detail.includes(message)) message += `: ${detail}`;
  else if (detail.includes(message)) message = detail;
  return message;
}

/** The bounds a connection keeps (StompConnectionOptions' defaults applied). */
export type StompTiming = Required<Omit<StompConnectionOptions, 'url' | 'login' | 'passcode' | 'logger'>>;

/** Where and as whom a connection goes (credentials from the options, else the URL), and its bounds. */
export function connectionSettings(opts: StompConnectionOptions) {
  const url = new URL(opts.url);
  if (!['stomp:', 'stomp+ssl:', 'stomps:'].includes(url.protocol)) throw new Error(`unsupported STOMP URL scheme ${url.protocol}`);
  const timing: StompTiming = {
    reconnectDelayMs: opts.reconnectDelayMs ?? 1000,
    maxReconnectDelayMs: opts.maxReconnectDelayMs ?? 30_000,
    heartbeatMs: opts.heartbeatMs ?? 10_000,
    connectTimeoutMs: opts.connectTimeoutMs ?? 10_000,
    receiptTimeoutMs: opts.receiptTimeoutMs ?? 30_000,
    closeTimeoutMs: opts.closeTimeoutMs ?? 5000,
  };
  return {
    host: url.hostname.replace(/^\[|\]$/g, ''),
    port: url.port ? Number(url.port) : 61613,
    ssl: url.protocol !== 'stomp:',
    login: opts.login ?? (url.username ? decodeURIComponent(url.username) : undefined),
    passcode: opts.passcode ?? (url.password ? decodeURIComponent(url.password) : undefined),
    timing,
  };
}

/** The wait before reconnect attempt `failed` + 1: doubled per failure up to the maximum, with jitter so that many instances do not reconnect in step after a broker restart. */
export function reconnectDelay(timing: Pick<StompTiming, 'reconnectDelayMs' | 'maxReconnectDelayMs'>, failed: number): number {
  const base = Math.min(timing.reconnectDelayMs * 2 ** failed, timing.maxReconnectDelayMs);
  return Math.round(base * (0.8 + Math.random() * 0.4));
}
