import stompit from 'stompit';
import { log as rootLog, type Logger } from '../log.js';
import {
  connectionSettings,
  reconnectDelay,
  errorText,
  fixErrorFrames,
  readBody,
  sendWithReceipt,
  withTimeout,
  type Session,
  type StompConnectionOptions,
  type StompHandler,
  type StompState,
  type SendOptions,
  type Subscription,
  type SubscribeOptions,
  type StompTiming,
} from './stomp-frames.js';

export type { AckMode, SendOptions, StompConnectionOptions, StompHandler, StompMessage, StompState, SubscribeOptions } from './stomp-frames.js';

/**
 * A STOMP 1.2 connection to ActiveMQ on top of stompit, kept alive across broker restarts: stompit
 * forgets everything when its one TCP session drops; this reconnects with backoff and subscribes
 * again. Sends are persistent (ActiveMQ's STOMP default is not) and resolve on the broker's RECEIPT,
 * so a resolved send is stored. The passcode never appears in a log line or an error.
 */
export class StompConnection {
  private readonly host: string;
  private readonly port: number;
  private readonly ssl: boolean;
  private readonly login: string | undefined;
  private readonly passcode: string | undefined;
  private readonly log: Logger;
  private readonly opts: StompTiming;

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
    ({ host: this.host, port: this.port, ssl: this.ssl, login: this.login, passcode: this.passcode, timing: this.opts } = connectionSettings(opts));
    this.log = (opts.logger ?? rootLog).child({ component: 'stomp', broker: `${this.host}:${this.port}` });
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
    return sendWithReceipt(session, frameHeaders, bytes, this.opts.receiptTimeoutMs);
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
    this.session = session;
    // close() ran while connecting; it awaits `connecting` and then finds this session.
    if (this.closed) return;
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
    const delay = reconnectDelay(this.opts, this.failedAttempts++);
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
    const text = errorText(error);
    return new Error(this.passcode ? text.split(this.passcode).join('[redacted]') : text);
  }
}
