import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../lib/db/client.js';
import { ADMIN_PASSWORD, cookieHeader, envelopeOf, startTestPlatform, TEST_MASTER_KEY, type TestPlatform } from '../support/platform.js';
import { createTestDatabase } from '../support/postgres.js';
import { runNpmScript, type PlatformProcess } from '../support/process.js';
import { freePort } from '../support/wait.js';

describe('npm run subgraph -- auth, as its own process on PostgreSQL', () => {
  let server: { url: string; drop(): Promise<void> };
  let child: PlatformProcess;
  let database: Database;
  let gateway: TestPlatform;
  let port: number;

  beforeAll(async () => {
    server = await createTestDatabase();
    port = await freePort();
    child = runNpmScript(['run', 'subgraph', '--', 'auth'], {
      DATABASE_URL: server.url,
      SUBGRAPH_PORT: String(port),
      PLATFORM_MASTER_KEY: TEST_MASTER_KEY,
      PLATFORM_ADMIN_PASSWORD: ADMIN_PASSWORD,
      LOG_LEVEL: 'info',
    });
    await child.waitForOutput('subgraph auth listening', 'the subgraph to start');
    database = await openDatabase({ url: server.url });
    gateway = await startTestPlatform({ SUBGRAPH_AUTH_URL: `http://127.0.0.1:${port}/graphql` }, { database });
  }, 120_000);

  afterAll(async () => {
    await gateway?.close();
    expect(await child?.stop('SIGTERM')).toBe(0);
    expect(child.output()).toContain('"msg":"stopped"');
    await database?.close();
    await server?.drop();
  });

  it('serves the gateway: login, validation and invalidation go through the separate process', async () => {
    const login = await gateway.request('POST', '/v1/authmanager/authenticate/internal/useridPwd', {
      body: envelopeOf({ userName: 'admin', password: ADMIN_PASSWORD, appId: 'admin' }),
    });
    expect(login.json.response.userId).toBe('admin');
    const token = login.json.response.token as string;
    expect((await gateway.request('GET', '/v1/authmanager/authorize/admin/validateToken', { headers: cookieHeader(token) })).json.response.userId).toBe(
      'admin',
    );
    await gateway.request('POST', '/v1/authmanager/authorize/invalidateToken', { headers: cookieHeader(token) });
    expect((await gateway.request('GET', '/v1/authmanager/authorize/admin/validateToken', { headers: cookieHeader(token) })).json.errors[0].errorCode).toBe(
      'KER-ATH-008',
    );
    // the subgraph checks the token itself when reached directly
    const direct = await fetch(`http://127.0.0.1:${port}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...cookieHeader(token) },
      body: JSON.stringify({ query: '{ validateToken { userId } }' }),
    });
    expect((await direct.json()).errors[0].extensions.code).toBe('KER-ATH-008');
    expect(child.output()).not.toContain(ADMIN_PASSWORD);
    expect(child.output()).not.toContain(token);
  });
});
