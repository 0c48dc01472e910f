import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runNpmScript, type PlatformProcess } from '../support/process.js';
import { createTestDatabase } from '../support/postgres.js';
import { freePort, waitFor } from '../support/wait.js';

const PASSWORD = 'Lifecycle-admin-password-1';
const STOMP_URL = process.env.STOMP_URL ?? 'stomp://127.0.0.1:61613';

const loginBody = () =>
  JSON.stringify({ id: 'x', version: '1.0', requesttime: new Date().toISOString(), request: { userName: 'admin', password: PASSWORD, appId: 'admin' } });

/** `npm start` with a fresh data folder (and database); `env` adds to or overrides the defaults. */
async function startPlatform(
  env: Record<string, string> = {},
  dataDir = mkdtempSync(path.join(tmpdir(), 'platform-lifecycle-')),
  options: { group?: boolean } = {},
) {
  const port = await freePort();
  const child = runNpmScript(
    ['start'],
    {
      PORT: String(port),
      PLATFORM_DATA_DIR: dataDir,
      PLATFORM_ADMIN_PASSWORD: PASSWORD,
      LOG_LEVEL: 'info',
      DATABASE_URL: '',
      STOMP_URL: '',
      ...env,
    },
    options,
  );
  await child.waitForOutput('identity platform listening', 'start-up');
  return { child, port, dataDir, url: `http://127.0.0.1:${port}` };
}

async function login(url: string): Promise<string> {
  const response = await fetch(`${url}/v1/authmanager/authenticate/internal/useridPwd`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: loginBody(),
  });
  return (await response.json()).response.token as string;
}

/** The time from the `shutting down` log line to `stopped`, as the process itself logged them. */
function shutdownMs(child: PlatformProcess): number {
  const lines = child.logLines();
  const at = (msg: string) => Date.parse(String(lines.find((line) => line.msg === msg)?.time));
  return at('stopped') - at('shutting down: draining requests');
}

describe('npm start as a process', () => {
  let platform: Awaited<ReturnType<typeof startPlatform>>;

  beforeAll(async () => {
    // A long grace: on a loaded machine the drain must wait for the logins, not cut them at the default 10 s.
    platform = await startPlatform({ STOMP_URL, PLATFORM_SHUTDOWN_GRACE_MS: '60000' });
  }, 120_000);

  afterAll(async () => {
    await platform?.child.stop('SIGKILL');
    rmSync(platform.dataDir, { recursive: true, force: true });
  });

  it('prints where it listens and which database and queue it uses', () => {
    const line = platform.child.logLines().find((l) => String(l.msg).includes('identity platform listening'));
    expect(line).toMatchObject({
      port: platform.port,
      database: `pglite:${path.join(platform.dataDir, 'pglite')}`,
      queue: STOMP_URL,
      objectStore: `files under ${platform.dataDir}/objects`,
      jobs: 'run here (4 at once)',
      role: 'platform',
      instance: expect.any(String),
      graphql: `http://localhost:${platform.port}/graphql (GraphiQL in a browser)`,
      swaggerUi: `http://localhost:${platform.port}/swagger-ui`,
      health: `http://localhost:${platform.port}/health (live: /health/live, ready: /health/ready)`,
      metrics: `http://localhost:${platform.port}/metrics`,
    });
  });

  it('reports the database and the queue UP on /health', async () => {
    // The broker connection is made in the background after start-up.
    const health = await waitFor(
      async () => {
        const json = await (await fetch(`${platform.url}/health`)).json();
        return json.components.queue.status === 'UP' && json;
      },
      'the queue UP',
      30_000,
    );
    expect(health).toEqual({
      status: 'UP',
      version: expect.any(String),
      instance: expect.any(String),
      components: {
        database: { status: 'UP', details: { kind: 'pglite' } },
        queue: { status: 'UP', details: { required: false } },
        objectStore: { status: 'UP', details: { kind: 'files' } },
        jobRunners: { status: 'UP', details: { alive: [{ role: 'platform', instance: health.instance }], runsHere: true } },
        virusScanner: { status: 'NOT_CONFIGURED', details: { detail: 'not configured' } },
        registrations: { status: 'UP', details: { stuck: 0 } },
        jobs: { status: 'UP', details: { queued: expect.any(Number), running: expect.any(Number), dead: 0 } },
        uinPool: { status: expect.stringMatching(/UP|LOW/), details: { unused: expect.any(Number), threshold: 100000, size: 200000 } },
        // No ABIS listens here: its first ping is young and unanswered (or not sent yet).
        abis: { status: 'UNKNOWN', details: { abis1: { liveness: 'UNKNOWN', unanswered: expect.any(Number), lastAnsweredAt: null } } },
      },
    });
  });

  it('logs no password or token', async () => {
    const token = await login(platform.url);
    await fetch(`${platform.url}/v1/authmanager/authorize/admin/validateToken`, { headers: { cookie: `Authorization=Platform-Token${token}` } });
    await platform.child.waitForOutput('/v1/authmanager/authorize/admin/validateToken', 'access log line');
    expect(platform.child.output()).not.toContain(PASSWORD);
    expect(platform.child.output()).not.toContain(token);
    expect(platform.child.output()).not.toContain(token.split('.')[2]!);
  });

  it('under load, answers every request in flight on SIGTERM, then exits 0 by itself', async () => {
    const inFlight = await loginsInFlight(platform.port, 8);
    platform.child.child.kill('SIGTERM');
    await platform.child.waitForOutput('shutting down', 'shutdown to begin');
    // The rest of each body arrives after the drain has begun: eight scrypt checks at once.
    inFlight.finish();
    expect(await platform.child.exited).toBe(0);
    await inFlight.expectAnswered(platform.child.output());
    expect(platform.child.output()).toContain('"msg":"stopped"');
    expect(platform.child.output()).not.toContain('forced exit');
  });
});

/**
 * Logins in flight: headers and half a body sent on connections of their own;
 * `finish` sends the rest, `expectAnswered` checks that each got its answer.
 */
async function loginsInFlight(port: number, count: number) {
  const body = loginBody();
  const requests = await Promise.all(
    Array.from({ length: count }, async () => {
      const socket = net.connect(port, '127.0.0.1');
      let answer = '';
      let failure = '';
      socket.on('data', (chunk) => {
        answer += chunk.toString();
      });
      // A reset is a failed answer, reported by the assertion (with the server's log), not an uncaught error.
      socket.on('error', (error) => {
        failure = String(error);
      });
      await new Promise((resolve) => socket.once('connect', resolve));
      socket.write(
        `POST /v1/authmanager/authenticate/internal/useridPwd HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 20)}`,
      );
      return { socket, answer: () => answer, failure: () => failure, closed: new Promise((resolve) => socket.once('close', resolve)) };
    }),
  );
  // A round trip on another connection after the writes: the server's event loop has polled since
  // the headers arrived, so it has read them (a fixed wait was not enough on a loaded machine).
  await new Promise((r) => setTimeout(r, 200));
  await fetch(`http://127.0.0.1:${port}/health`);
  return {
    finish: () => {
      for (const request of requests) request.socket.write(body.slice(20));
    },
    expectAnswered: async (serverLog: string) => {
      for (const request of requests) {
        await request.closed;
        expect(request.answer(), `${request.failure()}\n${serverLog}`).toMatch(/^HTTP\/1.1 200/);
        expect(request.answer()).toContain('Connection: close');
        expect(request.answer()).toContain('"status":"success"');
      }
    },
  };
}

// Ctrl-C in a terminal, systemd's default KillMode and `docker stop` with npm as PID 1 signal
// npm and node together; npm forwards the signal too, so node hears it twice.
describe.each(['pglite', 'postgresql'])('npm start in its own process group on %s, the group signalled', (database) => {
  it('answers the request in flight, ignores the repeated signals, logs stopped and exits 0', async () => {
    const server = database === 'postgresql' ? await createTestDatabase() : undefined;
    const platform = await startPlatform(server ? { DATABASE_URL: server.url } : {}, undefined, { group: true });
    try {
      const inFlight = await loginsInFlight(platform.port, 2);
      platform.child.signalGroup('SIGTERM');
      await platform.child.waitForOutput('shutting down', 'shutdown to begin');
      platform.child.signalGroup('SIGINT');
      platform.child.signalGroup('SIGTERM');
      inFlight.finish();
      expect(await platform.child.exited).toBe(0);
      await inFlight.expectAnswered(platform.child.output());
      expect(platform.child.output()).toContain('"msg":"stopped"');
      expect(platform.child.output()).toContain('already shutting down: signal ignored');
      expect(platform.child.output()).not.toContain('forced exit');
    } finally {
      await platform.child.stop('SIGKILL');
      rmSync(platform.dataDir, { recursive: true, force: true });
      await server?.drop();
    }
  }, 120_000);
});

describe.each([
  { database: 'pglite', queue: false },
  { database: 'pglite', queue: true },
  { database: 'postgresql', queue: false },
  { database: 'postgresql', queue: true },
])('an idle platform on $database (queue: $queue) and SIGTERM', ({ database, queue }) => {
  it('logs stopped within 1 s and exits 0 by itself, nothing left holding it open', async () => {
    const server = database === 'postgresql' ? await createTestDatabase() : undefined;
    const platform = await startPlatform({ ...(server ? { DATABASE_URL: server.url } : {}), ...(queue ? { STOMP_URL } : {}) });
    try {
      if (queue) await waitFor(async () => (await (await fetch(`${platform.url}/health`)).json()).status === 'UP', 'health UP', 30_000);
      expect((await fetch(`${platform.url}/health`)).status).toBe(200);
      expect(await platform.child.stop('SIGTERM')).toBe(0);
      expect(platform.child.output()).toContain('"msg":"stopped"');
      expect(platform.child.output()).not.toContain('forced exit');
      expect(shutdownMs(platform.child)).toBeLessThan(1000);
    } finally {
      await platform.child.stop('SIGKILL');
      rmSync(platform.dataDir, { recursive: true, force: true });
      await server?.drop();
    }
  }, 120_000);
});

describe('embedded PGlite across a restart', () => {
  it('keeps what was written before SIGTERM: the data folder is closed cleanly and opens again', async () => {
    const first = await startPlatform();
    try {
      const token = await login(first.url);
      const created = await fetch(`${first.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie: `Authorization=Platform-Token${token}` },
        body: JSON.stringify({
          query:
            'mutation { createUser(input: {userId: "kept-after-restart", name: "Kept", roles: [RESIDENT], appIds: ["resident"]}) { user { userId } userErrors { field code message } } }',
        }),
      });
      expect((await created.json()).data.createUser.user.userId).toBe('kept-after-restart');
      expect(await first.child.stop('SIGTERM')).toBe(0);

      const second = await startPlatform({}, first.dataDir);
      try {
        const again = await login(second.url);
        const read = await fetch(`${second.url}/graphql`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', cookie: `Authorization=Platform-Token${again}` },
          body: JSON.stringify({ query: '{ user(userId: "kept-after-restart") { userId name } }' }),
        });
        expect((await read.json()).data.user).toEqual({ userId: 'kept-after-restart', name: 'Kept' });
        expect(await second.child.stop('SIGTERM')).toBe(0);
      } finally {
        await second.child.stop('SIGKILL');
      }
    } finally {
      await first.child.stop('SIGKILL');
      rmSync(first.dataDir, { recursive: true, force: true });
    }
  }, 180_000);
});
