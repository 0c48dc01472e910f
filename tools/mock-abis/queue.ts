import stompit from 'stompit';

/**
 * The mock ABIS's STOMP side (ABIS.md (a), (f)), on stompit directly: one
 * subscription to the request queue with `ack:client-individual`, replies SENT
 * persistent with a receipt, in the message type the request came in (text:
 * no content-length and `amq-msg-type:text`; bytes: with content-length).
 * Reconnects with backoff and subscribes again; an unacknowledged request is
 * redelivered by the broker after a reconnect.
 */

export type MessageType = 'text' | 'bytes';

export interface Delivery {
  body: Buffer;
  headers: Record<string, string>;
  /** ACK on the connection that delivered it (a no-op once that connection is gone: the broker redelivers) */
  ack(): void;
}

export interface Logger {
  info(detail: Record<string, unknown>, message: string): void;
  warn(detail: Record<string, unknown>, message: string): void;
  error(detail: Record<string, unknown>, message: string): void;
}

export const silentLogger: Logger = { info: () => undefined, warn: () => undefined, error: () => undefined };

export interface AbisQueueOptions {
  /** stomp://[login:passcode@]host:port (stomp+ssl:// for TLS) */
  url: string;
  login?: string;
  passcode?: string;
  requestQueue: string;
  onMessage(delivery: Delivery): Promise<void>;
  logger?: Logger;
  reconnectDelayMs?: number;
  maxReconnectDelayMs?: number;
  heartbeatMs?: number;
  connectTimeoutMs?: number;
  receiptTimeoutMs?: number;
}

/** Which JMS type a delivery has: `amq-msg-type` if the broker says, else bytes when framed by length. */
export function messageTypeOf(headers: Record<string, string | number | undefined>): MessageType {
  const declared = String(headers['amq-msg-type'] ?? '').toLowerCase();
  if (declared === 'text' || declared === 'bytes') return declared;
  return headers['content-length'] !== undefined ? 'bytes' : 'text';
}

/** The SEND headers of a reply of this type (stompit adds `receipt`; a bytes body is framed by content-length). */
export function replyHeaders(destination: string, type: MessageType, body: Buffer, extra: Record<string, string> = {}): Record<string, string> {
  return {
    ...extra,
    destination,
    'content-type': 'application/json;charset=utf-8',
    persistent: 'true',
    ...(type === 'text' ? { 'amq-msg-type': 'text' } : { 'amq-msg-type': 'bytes', 'content-length': String(body.length) }),
  };
}

interface Session {
  client: stompit.Client;
  failReceipts: Set<(error: Error) => void>;
}

export class AbisQueue {
  private session: Session | null = null;
  private connecting: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private failures = 0;
  private closed = false;
  private readonly host: string;
  private readonly port: number;
  private readonly ssl: boolean;
  private readonly login: string | undefined;
  private readonly passcode: string | undefined;
  private readonly log: Logger;
  private readonly running = new Set<Promise<void>>();
  private upWaiters: (() => void)[] = [];

  constructor(private readonly options: AbisQueueOptions) {
    const url = new URL(options.url);
    if (!['stomp:', 'stomp+ssl:', 'stomps:'].includes(url.protocol)) throw new Error(`unsupported STOMP URL scheme ${url.protocol}`);
    this.host = url.hostname.replace(/^\[|\]$/g, '');
    this.port = url.port ? Number(url.port) : 61613;
    this.ssl = url.protocol !== 'stomp:';
    this.login = options.login ?? (url.username ? decodeURIComponent(url.username) : undefined);
    this.passcode = options.passcode ?? (url.password ? decodeURIComponent(url.password) : undefined);
    this.log = options.logger ?? silentLogger;
  }

  get up(): boolean {
    return this.session !== null;
  }

  /** Starts connecting (and keeps reconnecting until close); resolves once the first session is up. */
  start(): Promise<void> {
    const up = new Promise<void>((resolve) => {
      if (this.session) resolve();
      else this.upWaiters.push(resolve);
    });
    this.attempt().catch(() => this.scheduleReconnect());
    return up;
  }

  /** SENDs a reply and resolves on the broker's RECEIPT; rejects when the connection is down or drops first. */
  send(destination: string, body: Buffer, type: MessageType, extra: Record<string, string> = {}): Promise<void> {
    const session = this.session;
    if (!session) return Promise.reject(new Error(`not connected: reply to ${destination} not sent`));
    const headers = replyHeaders(destination, type, body, extra);
    const timeoutMs = this.options.receiptTimeoutMs ?? 30_000;
    return new Promise<void>((resolve, reject) => {
      let settled = false;
      const finish = (error?: Error) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        session.failReceipts.delete(finish);
        if (error) reject(error);
        else resolve();
      };
      const timer = setTimeout(() => finish(new Error(`no RECEIPT within ${timeoutMs} ms`)), timeoutMs);
      session.failReceipts.add(finish);
      const sendOptions = { onReceipt: () => finish() } as unknown as stompit.Client.SendOptions;
      session.client.send(headers, sendOptions).end(body);
    });
  }

  /** Unsubscribes, waits (bounded) for messages being served, disconnects; no reconnect afterwards. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    await this.connecting?.catch(() => undefined);
    await Promise.race([Promise.allSettled([...this.running]), new Promise((resolve) => setTimeout(resolve, 5000).unref())]);
    const session = this.session;
    if (!session) return;
    await Promise.race([
      new Promise<void>((resolve) => session.client.disconnect(() => resolve())),
      new Promise((resolve) => setTimeout(resolve, 5000).unref()),
    ]);
    if (this.session === session) session.client.destroy(new Error('no DISCONNECT receipt in time'));
    this.drop(session, new Error('connection closed'));
  }

  private attempt(): Promise<void> {
    if (this.session) return Promise.resolve();
    this.connecting ??= this.open().finally(() => {
      this.connecting = null;
    });
    return this.connecting;
  }

  private open(): Promise<void> {
    const heartbeat = this.options.heartbeatMs ?? 10_000;
    return new Promise<void>((resolve, reject) => {
      let settled = false;
      const connectHeaders: Record<string, string> = { 'accept-version': '1.2', host: this.host, 'heart-beat': `${heartbeat},${heartbeat}` };
      if (this.login !== undefined) connectHeaders.login = this.login;
      if (this.passcode !== undefined) connectHeaders.passcode = this.passcode;
      const client = stompit.connect(
        {
          host: this.host,
          port: this.port,
          ssl: this.ssl,
          timeout: 0,
          connectHeaders,
          heartbeatDelayMargin: Math.round(heartbeat * 1.5),
          heartbeatOutputMargin: Math.round(heartbeat * 0.2),
        } as stompit.connect.ConnectOptions,
        (error) => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          if (error) {
            this.log.warn({ reason: this.redact(error.message) }, 'mock ABIS: STOMP connect failed');
            reject(new Error(this.redact(error.message)));
            return;
          }
          if (this.closed) {
            client.destroy(new Error('closed while connecting'));
            reject(new Error('closed'));
            return;
          }
          this.onUp(session);
          resolve();
        },
      );
      fixErrorFrames(client);
      const session: Session = { client, failReceipts: new Set() };
      const timer = setTimeout(() => client.destroy(new Error('no CONNECTED in time')), this.options.connectTimeoutMs ?? 10_000);
      client.on('error', (error: Error) => this.lost(session, error));
      client.on('end', () => this.lost(session, new Error('connection ended')));
    });
  }

  private onUp(session: Session): void {
    this.session = session;
    this.failures = 0;
    const headers = { destination: this.options.requestQueue, ack: 'client-individual', id: 'mock-abis-requests' };
    session.client.subscribe(headers, (error, frame) => {
      if (error || !frame) return; // the session dying: lost() handles it
      const work = this.deliver(session, frame).catch((failure: unknown) =>
        this.log.error({ reason: failure instanceof Error ? failure.message : String(failure) }, 'mock ABIS: request not served'),
      );
      this.running.add(work);
      void work.finally(() => this.running.delete(work));
    });
    this.log.info({ broker: `${this.host}:${this.port}`, queue: this.options.requestQueue }, 'mock ABIS: listening');
    for (const waiter of this.upWaiters.splice(0)) waiter();
  }

  private async deliver(session: Session, frame: stompit.Client.Message): Promise<void> {
    const body = await new Promise<Buffer>((resolve, reject) => {
      const chunks: Buffer[] = [];
      frame.on('data', (chunk: Buffer | string) => chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk)));
      frame.once('end', () => resolve(Buffer.concat(chunks)));
      frame.once('error', reject);
    });
    const raw = (frame as unknown as { headers: Record<string, string | number> }).headers;
    const headers = Object.fromEntries(Object.entries(raw).map(([key, value]) => [key, String(value)]));
    await this.options.onMessage({
      body,
      headers,
      ack: () => {
        if (this.session === session) session.client.ack(frame);
      },
    });
  }

  private lost(session: Session, error: Error): void {
    if (this.session !== session) return;
    this.drop(session, error);
    if (this.closed) return;
    this.log.warn({ reason: this.redact(error.message) }, 'mock ABIS: STOMP connection lost, reconnecting');
    this.scheduleReconnect();
  }

  private drop(session: Session, error: Error): void {
    if (this.session === session) this.session = null;
    for (const fail of [...session.failReceipts]) fail(new Error(`reply not confirmed: ${this.redact(error.message)}`));
    session.failReceipts.clear();
  }

  private scheduleReconnect(): void {
    if (this.closed || this.timer || this.session) return;
    const base = Math.min((this.options.reconnectDelayMs ?? 1000) * 2 ** this.failures, this.options.maxReconnectDelayMs ?? 30_000);
    this.failures++;
    this.timer = setTimeout(
      () => {
        this.timer = null;
        this.attempt().catch(() => this.scheduleReconnect());
      },
      Math.round(base * (0.8 + Math.random() * 0.4)),
    );
    this.timer.unref?.();
  }

  private redact(text: string): string {
    return this.passcode ? text.split(this.passcode).join('[redacted]') : text;
  }
}

type FrameHandler = (this: stompit.Client, frame: NodeJS.ReadableStream & { headers: Record<string, string> }) => void;

/**
 * stompit 1.0 throws an ERROR frame with `content-type:text/plain` and a short
 * content-length as an uncaught exception; this handler reads the body and
 * destroys the client with it instead (as lib/queue/stomp.ts does).
 */
function fixErrorFrames(client: stompit.Client): void {
  const onError: FrameHandler = function (frame) {
    const chunks: Buffer[] = [];
    frame.on('data', (chunk: Buffer) => {
      if (chunks.length < 64) chunks.push(chunk);
    });
    frame.once('end', () => {
      const error = this.createApplicationError(frame.headers.message ?? 'server sent ERROR frame');
      const detail = Buffer.concat(chunks).toString('utf8').trim().split('\n')[0];
      if (detail) error.message += `: ${detail.slice(0, 300)}`;
      this.destroy(error);
    });
  };
  const install = client.setCommandHandlers.bind(client);
  client.setCommandHandlers = (handlers) => install({ ...handlers, ERROR: onError as unknown as Parameters<stompit.Client['setCommandHandlers']>[0][string] });
}
