/**
 * ClamAV's clamd protocol over TCP or a Unix socket: `zINSTREAM` for a scan, `zPING` for
 * health. One connection per command (clamd closes it after the answer); the `z` prefix makes
 * clamd end its answer with NUL.
 */
import type { FileHandle } from 'node:fs/promises';
import { open } from 'node:fs/promises';
import net from 'node:net';

export type ScanVerdict = { infected: false } | { infected: true; signature: string };

/** The scan could not decide: clamd unreachable, too slow, over its size limit, or a reply we do not understand. */
export class VirusScanError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'VirusScanError';
  }
}

export type ClamdTarget = { host: string; port: number } | { path: string };

export const DEFAULT_TIMEOUT_MS = 30_000;
/** clamd refuses chunks longer than its StreamMaxLength; 64 KiB is what clamdscan sends. */
export const MAX_CHUNK = 64 * 1024;
/** Health answers should be quick even when scans are given long. */
const HEALTH_TIMEOUT_MS = 5_000;
/** A real answer is a signature name or a short error: anything longer is not clamd. */
const MAX_REPLY = 4096;
const DEFAULT_PORT = 3310;

const INSTREAM = Buffer.from('zINSTREAM\0', 'latin1');
const PING = Buffer.from('zPING\0', 'latin1');
const END_OF_STREAM = Buffer.alloc(4); // a zero-length chunk

/**
 * `tcp://host:port` (port defaults to clamd's 3310) or `unix:///path/to/clamd.ctl`. Throws
 * VirusScanError without repeating the URL, which might carry something it should not.
 */
export function parseClamdUrl(url: string): ClamdTarget {
  const usage = 'CLAMD_URL must be tcp://host:port or unix:///path/to/clamd.ctl';
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new VirusScanError(`${usage}: not a URL`);
  }
  if (parsed.username || parsed.password || parsed.search || parsed.hash) {
    throw new VirusScanError(`${usage}: no user, password, query or fragment`);
  }
  if (parsed.protocol === 'tcp:') {
    const host = parsed.hostname.replace(/^\[(.*)\]$/, '$1'); // an IPv6 literal without its brackets
    if (!host) throw new VirusScanError(`${usage}: no host`);
    if (parsed.pathname && parsed.pathname !== '/') throw new VirusScanError(`${usage}: no path after host:port`);
    const port = parsed.port ? Number(parsed.port) : DEFAULT_PORT;
    if (!Number.isInteger(port) || port < 1 || port > 65535) throw new VirusScanError(`${usage}: port out of range`);
    return { host, port };
  }
  if (parsed.protocol === 'unix:') {
    if (parsed.host) throw new VirusScanError(`${usage}: a Unix socket URL has no host (three slashes)`);
    const path = decodeURIComponent(parsed.pathname);
    if (!path.startsWith('/') || path === '/') throw new VirusScanError(`${usage}: no socket path`);
    return { path };
  }
  throw new VirusScanError(`${usage}: unsupported scheme`);
}

/** Where a target is, for messages and health: clamd's address never carries a credential. */
export function describeTarget(target: ClamdTarget): string {
  if ('path' in target) return target.path;
  return target.host.includes(':') ? `[${target.host}]:${target.port}` : `${target.host}:${target.port}`;
}

/**
 * clamd's answer to INSTREAM, its trailing NUL or newline optional: `stream: OK`,
 * `stream: <signature> FOUND`; `... ERROR` (such as `INSTREAM size limit exceeded. ERROR`)
 * and anything else throw VirusScanError.
 */
export function parseScanReply(reply: string): ScanVerdict {
  const text = reply.replace(/[\0\r\n]+$/, '').trim();
  if (/\bERROR$/.test(text)) throw new VirusScanError(`clamd could not scan: ${shorten(text)}`);
  if (text === 'stream: OK') return { infected: false };
  const found = /^stream: (\S.*?) FOUND$/.exec(text);
  if (found?.[1]) return { infected: true, signature: found[1] };
  throw new VirusScanError(`unexpected clamd reply ${JSON.stringify(shorten(text))}`);
}

function shorten(text: string): string {
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

/** Writes the request once connected; `stopped()` turns true as soon as the exchange is over. */
type Send = (socket: net.Socket, stopped: () => boolean) => Promise<void>;

/**
 * One command: connect, send, read the NUL-terminated answer, always destroy the socket. The
 * deadline covers connect and answer alike. An abort rejects with the signal's reason.
 */
function converse(target: ClamdTarget, timeoutMs: number, signal: AbortSignal | undefined, send: Send): Promise<string> {
  signal?.throwIfAborted();
  const where = describeTarget(target);
  return new Promise<string>((resolve, reject) => {
    const socket = 'path' in target ? net.connect({ path: target.path }) : net.connect({ host: target.host, port: target.port });
    const received: Buffer[] = [];
    let receivedBytes = 0;
    let done = false;

    const finish = (error: unknown, reply?: string): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      socket.destroy();
      if (error === undefined) resolve(reply ?? '');
      else reject(error instanceof Error ? error : new VirusScanError('the scan was aborted', { cause: error }));
    };
    const onAbort = (): void => finish(signal?.reason);
    const timer = setTimeout(() => finish(new VirusScanError(`clamd at ${where} did not answer within ${timeoutMs} ms`)), timeoutMs);
    signal?.addEventListener('abort', onAbort, { once: true });

    socket.on('connect', () => {
      send(socket, () => done).catch((error: unknown) => finish(error));
    });
    // clamd answers once: an answer that comes while chunks are still going out (a size
    // limit) is final, so it ends the exchange at once instead of waiting for our writes.
    socket.on('data', (chunk: Buffer) => {
      received.push(chunk);
      receivedBytes += chunk.length;
      const all = Buffer.concat(received);
      const nul = all.indexOf(0);
      if (nul >= 0) finish(undefined, all.subarray(0, nul).toString('utf8'));
      else if (receivedBytes > MAX_REPLY) finish(new VirusScanError(`clamd at ${where} sent an over-long reply`));
    });
    socket.on('end', () => {
      // Without the NUL (an older clamd or a proxy): what came is the whole answer.
      if (receivedBytes > 0) finish(undefined, Buffer.concat(received).toString('utf8'));
      else finish(new VirusScanError(`clamd at ${where} closed the connection without an answer`));
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      finish(new VirusScanError(`clamd at ${where} is unreachable or failed: ${error.code ?? error.message}`, { cause: error }));
    });
    socket.on('close', () => finish(new VirusScanError(`clamd at ${where} closed the connection without an answer`)));
  });
}

/** Resolves once the socket has handed `data` to the kernel (so its buffer may be reused), or is gone. */
function written(socket: net.Socket, data: Buffer): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      socket.off('close', done);
      resolve();
    };
    socket.on('close', done);
    // An error reaches the callback and the socket's 'error' event alike: converse() handles it there.
    socket.write(data, done);
  });
}

/**
 * Streams the file as INSTREAM chunks through two reused buffers: one is read into while the
 * other is being written, and a buffer is reused only once the kernel has taken it, which is
 * clamd's backpressure. Memory stays at two chunks whatever the file's size, and no garbage
 * builds up per chunk.
 */
async function sendFile(file: FileHandle, socket: net.Socket, stopped: () => boolean): Promise<void> {
  socket.write(INSTREAM);
  const buffers = [Buffer.allocUnsafe(4 + MAX_CHUNK), Buffer.allocUnsafe(4 + MAX_CHUNK)] as const;
  const pending: Array<Promise<void>> = [Promise.resolve(), Promise.resolve()];
  for (let turn = 0; ; turn ^= 1) {
    const buffer = buffers[turn]!;
    await pending[turn];
    if (stopped()) return;
    const { bytesRead } = await file.read(buffer, 4, MAX_CHUNK, null);
    if (stopped()) return;
    if (bytesRead === 0) {
      socket.write(END_OF_STREAM);
      return;
    }
    buffer.writeUInt32BE(bytesRead, 0);
    pending[turn] = written(socket, buffer.subarray(0, 4 + bytesRead));
  }
}

export class ClamdScanner {
  readonly kind = 'clamd' as const;
  private readonly target: ClamdTarget;
  private readonly timeoutMs: number;

  constructor(url: string, timeoutMs = DEFAULT_TIMEOUT_MS) {
    if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) throw new VirusScanError('the clamd timeout must be a positive number of milliseconds');
    this.target = parseClamdUrl(url);
    this.timeoutMs = timeoutMs;
  }

  /** Errors opening or reading the file are thrown as they are: they are the caller's, not the scanner's. */
  async scanFile(path: string, signal?: AbortSignal): Promise<ScanVerdict> {
    signal?.throwIfAborted();
    const file = await open(path, 'r');
    let sending: Promise<void> | undefined;
    try {
      const reply = await converse(this.target, this.timeoutMs, signal, (socket, stopped) => (sending = sendFile(file, socket, stopped)));
      return parseScanReply(reply);
    } finally {
      // The file is closed only once the sender has stopped reading it.
      await sending?.catch(() => undefined);
      await file.close();
    }
  }

  async health(): Promise<{ status: 'UP' | 'DOWN'; detail: string }> {
    const where = describeTarget(this.target);
    try {
      const reply = await converse(this.target, Math.min(this.timeoutMs, HEALTH_TIMEOUT_MS), undefined, (socket) => {
        socket.write(PING);
        return Promise.resolve();
      });
      if (reply.trim() === 'PONG') return { status: 'UP', detail: `clamd at ${where}` };
      return { status: 'DOWN', detail: `clamd at ${where} answered PING with ${JSON.stringify(shorten(reply.trim()))}` };
    } catch (error) {
      return { status: 'DOWN', detail: error instanceof VirusScanError ? error.message : `clamd at ${where}: PING failed` };
    }
  }
}
