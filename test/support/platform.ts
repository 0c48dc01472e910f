import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, inject } from 'vitest';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createPlatform, type Platform } from '../../gateway/platform.js';
import { loadConfig } from '../../lib/config.js';
import { openDatabase, type Database } from '../../lib/db/client.js';
import { createLogger, type Logger } from '../../lib/log.js';
import { MasterKey } from '../../lib/master-key.js';
import { ManualClock } from '../../lib/time.js';
import { createTestDatabase, withAdminClient } from './postgres.js';

export const ADMIN_PASSWORD = 'Admin-password-for-tests-1';
export const ADMIN_CLIENT_SECRET = 'admin-client-secret-for-tests-0123456789abcdef';
export const TEST_MASTER_KEY = 'test-master-key';

/** One master key object for every test platform: derivation from a passphrase is deliberately slow. */
export const testMasterKey = MasterKey.fromPassphrase(TEST_MASTER_KEY);

export interface TestDatabase {
  database: Database;
  /** PostgreSQL only: where a second instance connects to the same database */
  url?: string;
  /** Makes the database unreachable for whoever uses it: a real outage, for failure tests. */
  cutOff(): Promise<void>;
  drop(): Promise<void>;
}

export type TestDatabaseKind = 'pglite' | 'postgres';

/**
 * A fresh database of the kind asked for, else the kind PLATFORM_TEST_DB names:
 * an in-memory PGlite, or a new database on the local PostgreSQL; both copied
 * from the run's migrated template (test/support/global-setup.ts).
 */
export async function freshDatabase(options: { onQuery?: (sql: string) => void; kind?: TestDatabaseKind } = {}): Promise<TestDatabase> {
  if ((options.kind ?? process.env.PLATFORM_TEST_DB) === 'postgres') {
    const server = await createTestDatabase(inject('postgresTemplate'));
    const database = await openDatabase({ url: server.url, migrate: false, onQuery: options.onQuery });
    return {
      database,
      url: server.url,
      // The pool would reconnect after a close: the server itself refuses the database instead.
      cutOff: () =>
        withAdminClient(async (client) => {
          await client.query(`ALTER DATABASE "${server.name}" WITH ALLOW_CONNECTIONS false`);
          await client.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1', [server.name]);
        }),
      drop: async () => {
        await database.close();
        await server.drop();
      },
    };
  }
  const database = await openDatabase({ dataDir: 'memory://', migrate: false, loadDataDir: await pgliteTemplate(), onQuery: options.onQuery });
  return { database, cutOff: () => database.close(), drop: () => database.close() };
}

let template: Blob | undefined;
async function pgliteTemplate(): Promise<Blob> {
  template ??= new Blob([await readFile(inject('pgliteTemplate'))]);
  return template;
}

/**
 * The clocks of the platforms alive; each test starts with them at the real
 * time (test/support/each-file.ts, run before every file: test files share
 * this module when they share a worker, so a hook declared here would be
 * declared for the first file only).
 */
export const liveClocks = new Set<ManualClock>();

export interface TestPlatform {
  platform: Platform;
  clock: ManualClock;
  baseUrl: string;
  request(
    method: string,
    path: string,
    options?: { body?: unknown; raw?: string; headers?: Record<string, string> },
  ): Promise<{ status: number; headers: Headers; json: any }>;
  graphql(query: string, variables?: Record<string, unknown>, headers?: Record<string, string>): Promise<any>;
  /** Logs the bootstrap admin in through REST and returns the raw JWT. */
  adminToken(): Promise<string>;
  /** Creates a client with these roles (as the admin) and logs it in through REST: its id and raw JWT. */
  clientToken(roles: string[], appId?: string): Promise<{ clientId: string; secretKey: string; token: string }>;
  /** Row counts of every table (but the throttle's counters), to prove a rejected request changed nothing. */
  snapshot(): Promise<Record<string, number>>;
  close(): Promise<void>;
}

export async function startTestPlatform(
  env: Record<string, string> = {},
  shared?: { database: Database },
  options: { logger?: Logger; database?: TestDatabaseKind } = {},
): Promise<TestPlatform> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'platform-test-'));
  const config = loadConfig({
    PLATFORM_DATA_DIR: dataDir,
    PLATFORM_ADMIN_PASSWORD: ADMIN_PASSWORD,
    PLATFORM_ADMIN_CLIENT_SECRET: ADMIN_CLIENT_SECRET,
    PLATFORM_SAMPLE_DATA: 'false',
    // a small UIN pool: tests that need the full one ask for it
    PLATFORM_UIN_POOL_SIZE: '20',
    PLATFORM_UIN_POOL_THRESHOLD: '5',
    // filled without resting: the pacing of a fresh start is the startup benchmark's to show
    PLATFORM_UIN_POOL_FILL_PERCENT: '100',
    // retries and re-claims found quickly (new jobs start at once either way)
    JOBS_POLL_MS: '100',
    PLATFORM_MASTER_KEY: TEST_MASTER_KEY,
    ...env,
  });
  const owned = shared ? undefined : await freshDatabase({ kind: options.database });
  const database = shared?.database ?? owned!.database;
  const clock = new ManualClock();
  liveClocks.add(clock);
  const platform = await createPlatform({
    config,
    database,
    clock,
    masterKey: testMasterKey,
    logger: options.logger ?? createLogger(process.env.TEST_LOG_LEVEL ?? 'silent'),
  });
  const address = await platform.listen(0);
  const baseUrl = `http://127.0.0.1:${address.port}`;

  const request: TestPlatform['request'] = async (method, urlPath, options = {}) => {
    const hasBody = options.body !== undefined || options.raw !== undefined;
    const response = await fetch(baseUrl + urlPath, {
      method,
      headers: { ...(hasBody ? { 'content-type': 'application/json' } : {}), ...options.headers },
      body: options.raw ?? (options.body === undefined ? undefined : JSON.stringify(options.body)),
    });
    const text = await response.text();
    return { status: response.status, headers: response.headers, json: text ? JSON.parse(text) : undefined };
  };

  const adminToken = async () => {
    const { json } = await request('POST', '/v1/authmanager/authenticate/internal/useridPwd', {
      body: envelopeOf({ userName: 'admin', password: ADMIN_PASSWORD, appId: 'admin' }),
    });
    if (!json.response?.token) throw new Error(`admin login failed: ${JSON.stringify(json.errors)}`);
    return json.response.token as string;
  };

  return {
    platform,
    clock,
    baseUrl,
    request,
    graphql: async (query, variables, headers) => (await request('POST', '/graphql', { body: { query, variables }, headers })).json,
    adminToken,
    clientToken: async (roles, appId = 'ida') => {
      const clientId = `client-${randomUUID().slice(0, 8)}`;
      const admin = cookieHeader(await adminToken());
      const created = (
        await request('POST', '/graphql', {
          body: {
            query: 'mutation($input: ClientInput!) { createClient(input: $input) { clientCredentials { secretKey } userErrors { field code message } } }',
            variables: { input: { clientId, roles, appIds: [appId] } },
          },
          headers: admin,
        })
      ).json;
      const secretKey = created.data?.createClient?.clientCredentials?.secretKey as string | undefined;
      if (!secretKey) throw new Error(`client creation failed: ${JSON.stringify(created.errors ?? created.data?.createClient?.userErrors)}`);
      const { json, headers } = await request('POST', '/v1/authmanager/authenticate/clientidsecretkey', { body: envelopeOf({ clientId, secretKey, appId }) });
      if (json.errors) throw new Error(`client login failed: ${JSON.stringify(json.errors)}`);
      return { clientId, secretKey, token: tokenOfCookie(headers.get('set-cookie') ?? '') };
    },
    snapshot: async () => {
      // Throttle counters are bookkeeping of attempts, not state a request changes: a refused attempt counts too.
      // The UIN pool fills in the background after a start, whatever the requests: its rows and its refill jobs, like
      // the recurring jobs, come and go by themselves; the jobs a request enqueues are counted.
      // Two statements, the tables as they are now (a test may have renamed one) and one count of them all: the fuzz
      // suite takes a snapshot after each refused request.
      const tables = await database.prisma.$queryRawUnsafe<{ relname: string }[]>(
        "SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.relkind = 'r' AND n.nspname = 'public' AND c.relname NOT IN ('auth_throttle', 'idrepo_uin_pool') ORDER BY 1",
      );
      const statement = tables
        .map(({ relname }) => {
          const where =
            relname === 'platform_job' ? ` WHERE kind <> 'idrepo.uin-pool.refill' AND ("singletonKey" IS NULL OR "singletonKey" NOT LIKE 'recurring:%')` : '';
          return `SELECT '${relname}' AS relname, count(*) AS n FROM "${relname}"${where}`;
        })
        .join(' UNION ALL ');
      const rows = await database.prisma.$queryRawUnsafe<{ relname: string; n: bigint | number }[]>(statement);
      return Object.fromEntries(rows.sort((a, b) => a.relname.localeCompare(b.relname)).map(({ relname, n }) => [relname, Number(n)] as const));
    },
    close: async () => {
      liveClocks.delete(clock);
      await platform.close();
      if (owned) await owned.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A request envelope as registration clients send it. */
export function envelopeOf(request: unknown, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { id: 'platform.test', version: '1.0', requesttime: new Date().toISOString(), metadata: {}, request, ...extra };
}

/** The JWT of a Set-Cookie header `Authorization=Platform-Token<jwt>; …`. */
export const tokenOfCookie = (setCookie: string) => /Authorization=Platform-Token([^;]+)/.exec(setCookie)?.[1] ?? '';

export const cookieHeader = (token: string) => ({ cookie: `Authorization=Platform-Token${token}` });
export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/**
 * One platform for a test file: started before its tests (handing over the
 * platform and an admin cookie), closed after them.
 */
export function useTestPlatform(
  env: Record<string, string>,
  ready: (t: TestPlatform, adminCookie: Record<string, string>) => void,
  options: { database?: TestDatabaseKind } = {},
): void {
  let platform: TestPlatform | undefined;
  beforeAll(async () => {
    platform = await startTestPlatform(env, undefined, options);
    ready(platform, cookieHeader(await platform.adminToken()));
  });
  afterAll(async () => {
    await platform?.close();
  });
}
