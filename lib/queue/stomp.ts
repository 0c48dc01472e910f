import stompit from 'stompit';
import { log as rootLog, type Logger } from '../log.js';

/**
 * A STOMP 1.2 connection to ActiveMQ on top of stompit, kept alive across broker restarts.
 *
 * stompit gives one TCP session and forgets everything when it drops; this wrapper reconnects
 * with backoff and subscribes every active subscription again (stompit does not). Sends are
 * always persistent (ActiveMQ makes STOMP sends non-persistent otherwise) and resolve on the
 * broker's RECEIPT, so a resolved send is stored by the broker. The passcode never appears in
 * a log line or an error.
 */

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

interface Subscription {
  id: string;
  destination: string;
  ack: AckMode;
  headers: Record<string, string>;
  handler: StompHandler;
}

/** One TCP/STOMP session; a reconnect makes a new one. */
interface Session {
  client: stompit.Client;
  live: Map<string, ReturnType<stompit.Client['subscribe']>>;
  pendingReceipts: Set<(error: Error) => void>;
  handlers: Set<Promise<void>>;
}

export class StompConnection {
  private readonly host: string;
  private readonly port: number;
  private readonly ssl: boolean;
  private readonly login: string | undefined;
  private readonly passcode: string | undefined;
  private readonly log: Logger;
  private readonly opts: Required<Omit<StompConnectionOptions, 'url' | 'login' | 'passcode' | 'logger'>>;

  private session: Session | null = null;
  private connecting: Promise<void> | null = null;
  private reconnectTimer: NodeJS.Timeout | null = null;
  private failedAttempts = 0;
  private closed = false;
  private nextSubId = 1;
  private readonly subs = new Map<string, Subscription>();
  private upWaiters: { resolve: () => void; reject: (error: Error) => void }[] = [];
  private readonly upListeners = new Set<() => void>();

  constructor(opts: StompConnectionOptions) {
    const url = new URL(opts.url);
    if (!['stomp:', 'stomp+ssl:', 'stomps:'].includes(url.protocol)) throw new Error(`unsupported STOMP URL scheme ${url.protocol}`);
    this.host = url.hostname.replace(/^\[|\]$/g, '');
    this.port = url.port ? Number(url.port) : 61613;
    this.ssl = url.protocol !== 'stomp:';
    this.login = opts.login ?? (url.username ? decodeURIComponent(url.username) : undefined);
    this.passcode = opts.passcode ?? (url.password ? decodeURIComponent(url.password) : undefined);
    this.log = (opts.logger ?? rootLog).child({ component: 'stomp', broker: `${this.host}:${this.port}` });
    this.opts = {
      reconnectDelayMs: opts.reconnectDelayMs ?? 1000,
      maxReconnectDelayMs: opts.maxReconnectDelayMs ?? 30_000,
      heartbeatMs: opts.heartbeatMs ?? 10_000,
      connectTimeoutMs: opts.connectTimeoutMs ?? 10_000,
      receiptTimeoutMs: opts.receiptTimeoutMs ?? 30_000,
      closeTimeoutMs: opts.closeTimeoutMs ?? 5000,
    };
  }

  get state(): StompState {
    if (this.session) return 'UP';
    return this.connecting ? 'CONNECTING' : 'DOWN';
  }

  /**
   * Resolves once a session is up. When the first attempt fails it rejects, and the wrapper
   * keeps retrying in the background (subscriptions made meanwhile start on the first session)
   * until close(); a caller that wants to give up calls close().
   */
  async connect(): Promise<void> {
    if (this.closed) throw new Error('STOMP connection is closed');
    if (this.session) return;
    this.clearReconnectTimer();
    try {
      await this.attempt();
    } catch (error) {
      this.scheduleReconnect();
      throw error;
    }
  }

  /**
   * Resolves once a session is up, now or after any number of reconnects (connect() reports only
   * its one attempt); rejects when close() comes first.
   */
  whenUp(): Promise<void> {
    if (this.closed) return Promise.reject(new Error('STOMP connection is closed'));
    if (this.session) return Promise.resolve();
    return new Promise<void>((resolve, reject) => this.upWaiters.push({ resolve, reject }));
  }

  /**
   * Sends a persistent message and resolves on the broker's RECEIPT. Rejects at once while the
   * connection is not UP (the caller's outbox retries). A string body becomes a JMS TextMessage
   * (`amq-msg-type:text`), a Buffer a BytesMessage, unless `headers` says otherwise.
   */
  send(destination: string, body: string | Buffer, headers: Record<string, string> = {}, options: SendOptions = {}): Promise<void> {
    const session = this.session;
    if (!session) return Promise.reject(new Error(`STOMP connection is ${this.state}, message to ${destination} not sent`));
    const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
    const byLength = options.contentLength ?? true;
    if (!byLength && bytes.includes(0)) return Promise.reject(new Error(`message to ${destination} holds a NUL byte: it needs content-length`));
    const frameHeaders: Record<string, string> = {
      ...(typeof body === 'string' ? { 'amq-msg-type': 'text' } : {}),
      ...headers,
      destination,
      persistent: 'true',
      // Framed by length unless asked not to: a body may hold NUL bytes.
      ...(byLength ? { 'content-length': String(bytes.length) } : {}),
    };
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
      const timer = setTimeout(
        () => finish(new Error(`no RECEIPT for message to ${destination} within ${this.opts.receiptTimeoutMs} ms`)),
        this.opts.receiptTimeoutMs,
      );
      session.pendingReceipts.add(onDrop);
      // stompit's onError would add a client 'error' listener per send; drops are handled in onDrop instead.
      const sendOptions = { onReceipt: () => finish() } as unknown as stompit.Client.SendOptions;
      session.client.send(frameHeaders, sendOptions).end(bytes);
    });
  }

  /** Subscribes now if UP, and again on every reconnect. The returned function unsubscribes. */
  subscribe(destination: string, handler: StompHandler, opts: SubscribeOptions = {}): () => void {
    if (this.closed) throw new Error('STOMP connection is closed');
    const sub: Subscription = {
      id: `sub-${this.nextSubId++}`,
      destination,
      ack: opts.ack ?? 'client-individual',
      headers: opts.headers ?? {},
      handler,
    };
    this.subs.set(sub.id, sub);
    if (this.session) this.subscribeOn(this.session, sub);
    return () => {
      if (!this.subs.delete(sub.id)) return;
      // stompit drops deliveries for it until the broker confirms the UNSUBSCRIBE; unacked ones go back to the queue.
      this.session?.live.get(sub.id)?.unsubscribe();
      this.session?.live.delete(sub.id);
    };
  }

  /** Unsubscribes, lets running handlers finish (bounded), sends DISCONNECT; no reconnect afterwards. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.clearReconnectTimer();
    for (const waiter of this.upWaiters.splice(0)) waiter.reject(new Error('STOMP connection closed before it was up'));
    await this.connecting?.catch(() => undefined);
    const session = this.session;
    if (!session) return;
    for (const live of session.live.values()) live.unsubscribe();
    session.live.clear();
    this.subs.clear();
    await withTimeout(Promise.allSettled([...session.handlers]), this.opts.closeTimeoutMs);
    const disconnected = new Promise<void>((resolve) => session.client.disconnect(() => resolve()));
    if (!(await withTimeout(disconnected, this.opts.closeTimeoutMs))) {
      this.log.warn('no DISCONNECT receipt, closing the socket');
      session.client.destroy(new Error('close timed out'));
    }
    this.dropSession(session, new Error('connection closed'));
    this.log.info('stomp connection closed');
  }

  /** One connection attempt; concurrent callers share it. */
  private attempt(): Promise<void> {
    if (this.session) return Promise.resolve();
    if (!this.connecting) {
      this.connecting = this.openSession().finally(() => {
        this.connecting = null;
      });
    }
    return this.connecting;
  }

  private openSession(): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      let settled = false;
      const connectHeaders: Record<string, string> = {
        'accept-version': '1.2',
        host: this.host,
        'heart-beat': `${this.opts.heartbeatMs},${this.opts.heartbeatMs}`,
      };
      if (this.login !== undefined) connectHeaders.login = this.login;
      if (this.passcode !== undefined) connectHeaders.passcode = this.passcode;
      const hb = this.opts.heartbeatMs;
      const client = stompit.connect(
        {
          host: this.host,
          port: this.port,
          ssl: this.ssl,
          // 0: stompit's own timer covers only the TCP connect; ours covers CONNECTED too.
          timeout: 0,
          connectHeaders,
          // ActiveMQ skips a heart-beat when it wrote anything in the previous period, so its
          // silences last up to twice the interval; stompit's default read check (interval + 100 ms)
          // then drops healthy connections. Allow 2.5 intervals, and send ours a little early.
          heartbeatDelayMargin: Math.round(hb * 1.5),
          heartbeatOutputMargin: Math.round(hb * 0.2),
        } as stompit.connect.ConnectOptions,
        (error) => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          if (error) {
            const safe = this.safeError(error);
            this.log.warn({ reason: safe.message, attempt: this.failedAttempts + 1 }, 'stomp connect failed');
            reject(safe);
            return;
          }
          this.sessionUp(session);
          resolve();
        },
      );
      fixErrorFrames(client); // before the TCP connect completes, i.e. before any frame is read
      const session: Session = { client, live: new Map(), pendingReceipts: new Set(), handlers: new Set() };
      const timer = setTimeout(() => client.destroy(new Error(`no CONNECTED within ${this.opts.connectTimeoutMs} ms`)), this.opts.connectTimeoutMs);
      // Always listen: stompit emits 'error' on every failure, and an unheard 'error' crashes the process.
      client.on('error', (error: Error) => this.onLost(session, error));
      client.on('end', () => this.onLost(session, new Error('connection ended')));
    });
  }

  private sessionUp(session: Session): void {
    if (this.closed) {
      // close() ran while connecting; it awaits `connecting` and then finds this session.
      this.session = session;
      return;
    }
    this.session = session;
    this.failedAttempts = 0;
    for (const sub of this.subs.values()) this.subscribeOn(session, sub);
    this.log.info({ subscriptions: this.subs.size }, 'stomp connected');
    for (const waiter of this.upWaiters.splice(0)) waiter.resolve();
    for (const listener of this.upListeners) listener();
  }

  /** Calls `listener` each time a session comes up (the first and every reconnect); returns how to stop. */
  onUp(listener: () => void): () => void {
    this.upListeners.add(listener);
    return () => this.upListeners.delete(listener);
  }

  private onLost(session: Session, error: Error): void {
    if (this.session !== session) return; // a failed attempt (reported by connect) or an old session
    this.dropSession(session, error);
    if (this.closed) return;
    this.log.warn({ reason: this.safeError(error).message }, 'stomp connection lost, reconnecting');
    this.scheduleReconnect();
  }

  private dropSession(session: Session, error: Error): void {
    if (this.session === session) this.session = null;
    const safe = this.safeError(error);
    for (const fail of [...session.pendingReceipts]) fail(safe);
    session.pendingReceipts.clear();
    session.live.clear();
  }

  private scheduleReconnect(): void {
    if (this.closed || this.reconnectTimer || this.session) return;
    const base = Math.min(this.opts.reconnectDelayMs * 2 ** this.failedAttempts, this.opts.maxReconnectDelayMs);
    // Jitter so that many instances do not reconnect in step after a broker restart.
    const delay = Math.round(base * (0.8 + Math.random() * 0.4));
    this.failedAttempts++;
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      this.attempt().catch(() => this.scheduleReconnect());
    }, delay);
    this.reconnectTimer.unref?.();
  }

  private clearReconnectTimer(): void {
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.reconnectTimer = null;
  }

  private subscribeOn(session: Session, sub: Subscription): void {
    const headers = { ...sub.headers, destination: sub.destination, id: sub.id, ack: sub.ack };
    const live = session.client.subscribe(headers, (error, frame) => {
      // An error here is the session dying; onLost handles it for all subscriptions at once.
      if (error || !frame) return;
      const work = this.deliver(session, sub, frame);
      session.handlers.add(work);
      void work.finally(() => session.handlers.delete(work));
    });
    session.live.set(sub.id, live);
  }

  private async deliver(session: Session, sub: Subscription, frame: stompit.Client.Message): Promise<void> {
    let body: Buffer;
    try {
      body = await readBody(frame);
    } catch (error) {
      this.log.warn({ reason: this.safeError(error).message, destination: sub.destination }, 'stomp message body unreadable');
      return;
    }
    // @types/stompit omits the parsed headers that stompit 1.0 puts on every incoming frame.
    const headers: Record<string, string> = { ...(frame as unknown as { headers: Record<string, string> }).headers };
    const respond = (kind: 'ack' | 'nack'): void => {
      if (sub.ack === 'auto') return;
      if (this.session !== session) {
        this.log.debug({ destination: sub.destination }, `stomp ${kind} skipped: the delivering connection is gone`);
        return;
      }
      session.client[kind](frame);
    };
    try {
      await sub.handler({ body, headers, ack: () => respond('ack'), nack: () => respond('nack') });
    } catch (error) {
      // Left unacknowledged: the broker redelivers it after a reconnect or to another consumer.
      this.log.error({ reason: this.safeError(error).message, destination: sub.destination }, 'stomp message handler failed');
    }
  }

  /** A new Error with the passcode removed and without stompit's `connectArgs` (which hold it). */
  private safeError(error: unknown): Error {
    const raw = error instanceof Error ? error : new Error(String(error));
    let message = raw.message;
    const longMessage = (raw as { longMessage?: unknown }).longMessage;
    // An ERROR frame's body: ActiveMQ puts a Java stack trace there, whose first line is enough.
    const detail = typeof longMessage === 'string' ? (longMessage.trim().split('\n')[0] ?? '').slice(0, 500) : '';
    if (detail && !message.includes(detail) && !detail.includes(message)) message += `: ${detail}`;
    else if (detail.includes(message)) message = detail;
    return new Error(this.redact(message));
  }

  private redact(text: string): string {
    return this.passcode ? text.split(this.passcode).join('[redacted]') : text;
  }
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
function fixErrorFrames(client: stompit.Client): void {
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

function readBody(frame: NodeJS.ReadableStream): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    frame.on('data', (chunk: Buffer | string) => chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk)));
    frame.once('end', () => resolve(Buffer.concat(chunks)));
    frame.once('error', reject);
  });
}

/** True when `promise` settled within `ms`. */
async function withTimeout(promise: Promise<unknown>, ms: number): Promise<boolean> {
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
