import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, open, rm, truncate, writeFile } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { deflateRawSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openVirusScanner, VirusScanError } from '../../lib/virus-scan/index.js';

// Runs against a real clamd; scripts/clamd.sh starts one (offline, EICAR-only database) when CLAMD_URL is local.
const CLAMD_URL = process.env.CLAMD_URL || 'tcp://127.0.0.1:3310';
const clamd = new URL(CLAMD_URL);
const LOCAL = clamd.protocol === 'tcp:' && ['127.0.0.1', 'localhost'].includes(clamd.hostname);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
// clamd reports signatures of an unsigned database with this suffix.
const SIGNATURE = /^Platform\.Test\.EICAR(\.UNOFFICIAL)?$/;
// Two halves, so that this file is not itself a detection for a scanner looking at the repository.
const EICAR = Buffer.from('X5O!P%@AP[4\\PZX54(P^)7CC)7}$EICAR-STANDARD-ANT' + 'IVIRUS-TEST-FILE!$H+H*', 'latin1');

const run = promisify(execFile);
let dir: string;
const cleanups: Array<() => Promise<unknown>> = [];

function clamdScript(command: 'start' | 'stop', env: Record<string, string> = {}): Promise<{ stdout: string }> {
  return run('bash', ['scripts/clamd.sh', command], { cwd: ROOT, env: { ...process.env, ...env }, timeout: 300_000 });
}

/** A port nothing listens on (just released by the OS). */
async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A fake clamd that reads and never answers: what a hung clamd or a black-holed port looks like. */
async function silentServer(): Promise<{ url: string; closed: () => number; close: () => Promise<void> }> {
  let closed = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('data', () => undefined);
    socket.on('error', () => undefined);
    socket.on('close', () => {
      closed++;
      sockets.delete(socket);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `tcp://127.0.0.1:${port}`,
    closed: () => closed,
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function crc32(data: Buffer): number {
  let crc = ~0;
  for (const byte of data) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return ~crc >>> 0;
}

/** A zip with one deflated entry: its bytes only show EICAR once clamd has inflated the entry. */
function zipOf(name: string, content: Buffer): Buffer {
  const data = deflateRawSync(content);
  const fileName = Buffer.from(name);
  const crc = crc32(content);
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4); // version needed
  local.writeUInt16LE(8, 8); // deflate
  local.writeUInt16LE(0x21, 12); // 1980-01-01
  local.writeUInt32LE(crc, 14);
  local.writeUInt32LE(data.length, 18);
  local.writeUInt32LE(content.length, 22);
  local.writeUInt16LE(fileName.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(20, 4);
  central.writeUInt16LE(20, 6);
  central.writeUInt16LE(8, 10);
  central.writeUInt16LE(0x21, 14);
  central.writeUInt32LE(crc, 16);
  central.writeUInt32LE(data.length, 20);
  central.writeUInt32LE(content.length, 24);
  central.writeUInt16LE(fileName.length, 28);
  const centralOffset = local.length + fileName.length + data.length;
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(central.length + fileName.length, 12);
  end.writeUInt32LE(centralOffset, 16);
  return Buffer.concat([local, fileName, data, central, fileName, end]);
}

async function file(name: string, content: Buffer | string): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, content);
  return path;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'clamd-test-'));
  if (!LOCAL) return; // a clamd someone else runs
  await clamdScript('start', { CLAMD_PORT: clamd.port || '3310' });
}, 300_000);

afterAll(async () => {
  for (const cleanup of cleanups) await cleanup();
  await rm(dir, { recursive: true, force: true });
});

describe('clamd scanner against a real clamd', () => {
  const scanner = openVirusScanner({ url: CLAMD_URL });

  it('is UP and answers clean for a clean file', async () => {
    expect(scanner.kind).toBe('clamd');
    expect(await scanner.health()).toEqual({ status: 'UP', detail: `clamd at ${clamd.host}` });
    expect(await scanner.scanFile(await file('clean.txt', 'name=Zoë\nborn=1990-01-01\n'))).toEqual({ infected: false });
    expect(await scanner.scanFile(await file('empty', ''))).toEqual({ infected: false });
  });

  it('finds EICAR alone, inside a larger file, and in a deflated zip entry', async () => {
    const alone = await scanner.scanFile(await file('eicar.com', EICAR));
    expect(alone).toMatchObject({ infected: true, signature: expect.stringMatching(SIGNATURE) });
    // Past the first chunk, so the match spans what the client sent as separate chunks.
    const inside = Buffer.concat([randomBytes(65_536 - 20), EICAR, randomBytes(1000)]);
    expect(await scanner.scanFile(await file('packet.bin', inside))).toMatchObject({ infected: true, signature: expect.stringMatching(SIGNATURE) });
    const zip = zipOf('documents/eicar.txt', Buffer.concat([Buffer.from('some text '.repeat(100)), EICAR]));
    expect(zip.includes(EICAR)).toBe(false);
    expect(await scanner.scanFile(await file('packet.zip', zip))).toMatchObject({ infected: true, signature: expect.stringMatching(SIGNATURE) });
  });

  it('streams a 50 MB file without holding it in memory', async () => {
    const path = join(dir, 'large.bin');
    const handle = await open(path, 'w');
    const block = randomBytes(1024 * 1024);
    for (let i = 0; i < 50; i++) await handle.write(block);
    await handle.close();

    // A guard against reading the file whole or ignoring backpressure, not a timing.
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
    try {
      expect(await scanner.scanFile(path)).toEqual({ infected: false });
    } finally {
      clearInterval(sampler);
    }
    peak = Math.max(peak, process.memoryUsage().rss);
    expect((peak - before) / 1024 / 1024).toBeLessThan(30);
  });

  it('a file over clamd StreamMaxLength (128 MiB) cannot be decided', async () => {
    const path = join(dir, 'over-limit.bin');
    await writeFile(path, '');
    await truncate(path, 129 * 1024 * 1024); // sparse: nothing written to disk
    await expect(scanner.scanFile(path)).rejects.toThrow(/size limit exceeded/);
    await expect(scanner.scanFile(path)).rejects.toBeInstanceOf(VirusScanError);
  });

  it('over a Unix socket too', async () => {
    if (!LOCAL) return; // the socket is the one scripts/clamd.sh configures
    const overSocket = openVirusScanner({ url: `unix://${join(process.env.CLAMD_BASE || '/tmp/platform-clamd', 'clamd.ctl')}` });
    expect((await overSocket.health()).status).toBe('UP');
    expect(await overSocket.scanFile(await file('eicar-socket.com', EICAR))).toMatchObject({ infected: true });
  });
});

describe('clamd scanner when clamd cannot answer', () => {
  it('a clamd that stops: scans throw VirusScanError and health is DOWN', async () => {
    const port = String(await freePort());
    const env = { CLAMD_BASE: join(dir, 'second-clamd'), CLAMD_PORT: port };
    const { stdout } = await clamdScript('start', env);
    cleanups.push(() => clamdScript('stop', env).catch(() => undefined));
    expect(stdout.trim()).toBe(`tcp://127.0.0.1:${port}`);
    const scanner = openVirusScanner({ url: stdout.trim() });
    const eicar = await file('eicar-second.com', EICAR);
    expect(await scanner.scanFile(eicar)).toMatchObject({ infected: true });

    await clamdScript('stop', env);
    await expect(scanner.scanFile(eicar)).rejects.toThrow(VirusScanError);
    await expect(scanner.scanFile(eicar)).rejects.toThrow(`clamd at 127.0.0.1:${port} is unreachable or failed: ECONNREFUSED`);
    expect(await scanner.health()).toEqual({ status: 'DOWN', detail: `clamd at 127.0.0.1:${port} is unreachable or failed: ECONNREFUSED` });
  });

  it('a wrong port or socket path: VirusScanError, health DOWN', async () => {
    const scanner = openVirusScanner({ url: `tcp://127.0.0.1:${await freePort()}` });
    await expect(scanner.scanFile(await file('any.txt', 'x'))).rejects.toBeInstanceOf(VirusScanError);
    expect((await scanner.health()).status).toBe('DOWN');
    const noSocket = openVirusScanner({ url: `unix://${join(dir, 'no-such.ctl')}` });
    await expect(noSocket.scanFile(await file('any.txt', 'x'))).rejects.toThrow(/ENOENT/);
    expect((await noSocket.health()).status).toBe('DOWN');
  });

  it('a clamd that never answers: timeout, the connection closed; an abort rejects with its reason', async () => {
    const silent = await silentServer();
    cleanups.push(silent.close);
    const path = join(dir, 'timeout.bin');
    await writeFile(path, '');
    await truncate(path, 20 * 1024 * 1024); // more than socket buffers hold: the sender waits on backpressure

    const scanner = openVirusScanner({ url: silent.url, timeoutMs: 300 });
    await expect(scanner.scanFile(path)).rejects.toThrow(/did not answer within 300 ms/);
    expect(await scanner.health()).toMatchObject({ status: 'DOWN', detail: expect.stringMatching(/did not answer/) });

    const patient = openVirusScanner({ url: silent.url, timeoutMs: 60_000 });
    const controller = new AbortController();
    const scan = patient.scanFile(path, controller.signal);
    setTimeout(() => controller.abort(new Error('upload cancelled')), 100);
    await expect(scan).rejects.toThrow('upload cancelled');
    await expect(patient.scanFile(path, AbortSignal.abort())).rejects.toThrow(/abort/i);
    // Each of the scans and the PING that reached the server had its socket destroyed.
    await expect.poll(() => silent.closed()).toBe(3);
  });

  it('a file that does not exist: the file-system error, not a scan failure', async () => {
    const scanner = openVirusScanner({ url: CLAMD_URL });
    await expect(scanner.scanFile(join(dir, 'missing'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('no URL: kind none, clean, NOT_CONFIGURED', async () => {
    const scanner = openVirusScanner({});
    expect(scanner.kind).toBe('none');
    expect(await scanner.scanFile(await file('eicar-none.com', EICAR))).toEqual({ infected: false });
    expect(await scanner.health()).toEqual({ status: 'NOT_CONFIGURED', detail: 'not configured' });
  });
});
