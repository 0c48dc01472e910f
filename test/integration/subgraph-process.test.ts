import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../lib/db/client.js';
import { ADMIN_PASSWORD, cookieHeader, envelopeOf, startTestPlatform, TEST_MASTER_KEY, type TestPlatform } from '../support/platform.js';
import { createTestDatabase } from '../support/postgres.js';

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

describe('npm run subgraph -- auth, as its own process on PostgreSQL', () => {
  let server: { url: string; drop(): Promise<void> };
  let child: ChildProcessWithoutNullStreams;
  let output = '';
  let database: Database;
  let gateway: TestPlatform;
  let port: number;

  beforeAll(async () => {
    server = await createTestDatabase();
    port = await freePort();
    // What `npm run subgraph -- auth` runs, without npm in between so the signal reaches it.
    child = spawn(process.execPath, ['--import', 'tsx', 'scripts/subgraph.ts', 'auth'], {
      env: { ...process.env, DATABASE_URL: server.url, SUBGRAPH_PORT: String(port), PLATFORM_MASTER_KEY: TEST_MASTER_KEY, PLATFORM_ADMIN_PASSWORD: ADMIN_PASSWORD, LOG_LEVEL: 'info' },
    });
    child.stdout.on('data', (chunk: Buffer) => { output += chunk.toString(); });
    child.stderr.on('data', (chunk: Buffer) => { output += chunk.toString(); });
    const until = Date.now() + 90_000;
    while (!output.includes('subgraph auth listening')) {
      if (Date.now() > until || child.exitCode !== null) throw new Error(`subgraph did not start:\n${output}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    database = await openDatabase({ url: server.url });
    gateway = await startTestPlatform({ SUBGRAPH_AUTH_URL: `http://127.0.0.1:${port}/graphql` }, { database });
  }, 120_000);

  afterAll(async () => {
    await gateway?.close();
    child?.kill('SIGTERM');
    await new Promise((resolve) => (child?.exitCode !== null ? resolve(null) : child.once('exit', resolve)));
    await database?.close();
    await server?.drop();
  });

  it('serves the gateway: login, validation and invalidation go through the separate process', async () => {
    const login = await gateway.request('POST', '/v1/authmanager/authenticate/internal/useridPwd', {
      body: envelopeOf({ userName: 'admin', password: ADMIN_PASSWORD, appId: 'admin' }),
    });
    expect(login.json.response.userId).toBe('admin');
    const token = login.json.response.token as string;
    expect((await gateway.request('GET', '/v1/authmanager/authorize/admin/validateToken', { headers: cookieHeader(token) })).json.response.userId).toBe('admin');
    await gateway.request('POST', '/v1/authmanager/authorize/invalidateToken', { headers: cookieHeader(token) });
    expect((await gateway.request('GET', '/v1/authmanager/authorize/admin/validateToken', { headers: cookieHeader(token) })).json.errors[0].errorCode).toBe('KER-ATH-008');
    // the subgraph checks the token itself when reached directly
    const direct = await fetch(`http://127.0.0.1:${port}/graphql`, {
      method: 'POST', headers: { 'content-type': 'application/json', ...cookieHeader(token) }, body: JSON.stringify({ query: '{ validateToken { userId } }' }),
    });
    expect((await direct.json()).errors[0].extensions.code).toBe('KER-ATH-008');
    expect(output).not.toContain(ADMIN_PASSWORD);
    expect(output).not.toContain(token);
  });
});
