import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const PASSWORD = 'Lifecycle-admin-password-1';
const STOMP_URL = process.env.STOMP_URL ?? 'stomp://127.0.0.1:61613';

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

async function waitFor(check: () => boolean, what: string, ms = 60_000): Promise<void> {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('npm start as a process', () => {
  let child: ChildProcessWithoutNullStreams;
  let output = '';
  let port: number;
  let dataDir: string;
  let exitCode: number | null | undefined;

  beforeAll(async () => {
    port = await freePort();
    dataDir = mkdtempSync(path.join(tmpdir(), 'platform-lifecycle-'));
    child = spawn(process.execPath, ['--import', 'tsx', 'gateway/main.ts'], {
      env: { ...process.env, PORT: String(port), PLATFORM_DATA_DIR: dataDir, PLATFORM_ADMIN_PASSWORD: PASSWORD, STOMP_URL, LOG_LEVEL: 'info', DATABASE_URL: '' },
    });
    child.stdout.on('data', (chunk: Buffer) => { output += chunk.toString(); });
    child.stderr.on('data', (chunk: Buffer) => { output += chunk.toString(); });
    child.on('exit', (code) => { exitCode = code; });
    await waitFor(() => output.includes('identity platform listening'), 'start-up');
  }, 120_000);

  afterAll(() => {
    if (exitCode === undefined) child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('prints where it listens and which database and queue it uses', () => {
    const line = JSON.parse(output.split('\n').find((l) => l.includes('identity platform listening'))!);
    expect(line).toMatchObject({ port, database: `pglite:${path.join(dataDir, 'pglite')}`, queue: STOMP_URL });
  });

  it('reports the database and the queue UP on /health', async () => {
    // The broker connection is made in the background after start-up.
    let health: any;
    for (let tries = 0; tries < 300 && health?.components.queue.status !== 'UP'; tries++) {
      if (tries) await new Promise((r) => setTimeout(r, 100));
      health = await (await fetch(`http://127.0.0.1:${port}/health`)).json();
    }
    expect(health).toEqual({ status: 'UP', components: { database: { status: 'UP', details: { kind: 'pglite' } }, queue: { status: 'UP' } } });
  });

  it('logs no password or token', async () => {
    const response = await fetch(`http://127.0.0.1:${port}/v1/authmanager/authenticate/internal/useridPwd`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id: 'x', version: '1.0', requesttime: new Date().toISOString(), request: { userName: 'admin', password: PASSWORD, appId: 'admin' } }),
    });
    const token = (await response.json()).response.token as string;
    await fetch(`http://127.0.0.1:${port}/v1/authmanager/authorize/admin/validateToken`, { headers: { cookie: `Authorization=Platform-Token${token}` } });
    await waitFor(() => output.includes('/v1/authmanager/authorize/admin/validateToken'), 'access log line');
    expect(output).not.toContain(PASSWORD);
    expect(output).not.toContain(token);
    expect(output).not.toContain(token.split('.')[2]!);
  });

  it('drains an in-flight request on SIGTERM, then closes the database and the queue and exits 0', async () => {
    const body = JSON.stringify({ id: 'x', version: '1.0', requesttime: new Date().toISOString(), request: { userName: 'admin', password: PASSWORD, appId: 'admin' } });
    const socket = net.connect(port, '127.0.0.1');
    let answer = '';
    socket.on('data', (chunk) => { answer += chunk.toString(); });
    await new Promise((resolve) => socket.once('connect', resolve));
    // Half a request is in flight when the signal arrives.
    socket.write(`POST /v1/authmanager/authenticate/internal/useridPwd HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body.slice(0, 20)}`);
    await new Promise((r) => setTimeout(r, 200));
    child.kill('SIGTERM');
    await waitFor(() => output.includes('shutting down'), 'shutdown to begin');
    socket.write(body.slice(20));
    await waitFor(() => exitCode !== undefined, 'exit', 30_000);
    expect(exitCode).toBe(0);
    expect(answer).toMatch(/^HTTP\/1.1 200/);
    expect(answer).toContain('"status":"success"');
    expect(output).toContain('"msg":"stopped"');
  });
});
