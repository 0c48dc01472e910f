import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSubgraphServer, type SubgraphServer } from '../../gateway/subgraph-server.js';
import { expressPath } from '../../rest-compat/route.js';
import { REST_ROUTES } from '../../gateway/components.js';
import { auth } from '../../subgraphs/auth/index.js';
import { ADMIN_PASSWORD, cookieHeader, envelopeOf, freshDatabase, startTestPlatform, type TestDatabase, type TestPlatform } from '../support/platform.js';

describe('health and API documents', () => {
  let t: TestPlatform;
  beforeAll(async () => {
    t = await startTestPlatform();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('reports UP with the database up and the queue disabled when STOMP_URL is unset', async () => {
    const { status, json } = await t.request('GET', '/health');
    expect(status).toBe(200);
    expect(json).toEqual({
      status: 'UP',
      version: expect.stringMatching(/^\d+\.\d+\.\d+/),
      instance: expect.any(String),
      components: {
        database: { status: 'UP', details: { kind: expect.stringMatching(/pglite|postgresql/) } },
        queue: { status: 'DISABLED', details: { required: false } },
        objectStore: { status: 'UP', details: { kind: 'files' } },
        jobRunners: { status: 'UP', details: { alive: [{ role: 'platform', instance: json.instance }], runsHere: true } },
        virusScanner: { status: 'NOT_CONFIGURED', details: { detail: 'not configured' } },
        registrations: { status: 'UP', details: { stuck: 0 } },
        abis: { status: 'DISABLED', details: {} },
        jobs: { status: 'UP', details: { queued: expect.any(Number), running: expect.any(Number), dead: 0 } },
        uinPool: { status: expect.stringMatching(/UP|LOW/), details: { unused: expect.any(Number), threshold: 5, size: 20 } },
      },
    });
  });

  it('answers liveness with the process alone, and readiness with what this instance needs', async () => {
    const live = await t.request('GET', '/health/live');
    expect(live.status).toBe(200);
    expect(live.json).toEqual({ status: 'UP', version: expect.any(String), instance: expect.any(String), components: {} });
    const ready = await t.request('GET', '/health/ready');
    expect(ready.status).toBe(200);
    expect(Object.keys(ready.json.components).sort()).toEqual(['database', 'jobRunners', 'objectStore', 'queue']);
  });

  it('serves an OpenAPI 3.1 document listing exactly the REST routes the app has', async () => {
    const { json } = await t.request('GET', '/v3/api-docs');
    expect(json.openapi).toBe('3.1.0');
    const documented = Object.entries(json.paths as Record<string, Record<string, unknown>>)
      .flatMap(([path, methods]) => Object.keys(methods).map((method) => `${method} ${path}`))
      .sort();
    const declared = REST_ROUTES.map((route) => `${route.method} ${route.path}`).sort();
    expect(documented).toEqual(declared);
    // and the Express router really has each of them
    const stack = (t.platform.app as unknown as { router: { stack: { route?: { path: string; methods: Record<string, boolean> } }[] } }).router.stack;
    const mounted = stack.flatMap((layer) => (layer.route ? Object.keys(layer.route.methods).map((m) => `${m} ${layer.route!.path}`) : []));
    for (const route of REST_ROUTES) expect(mounted).toContain(`${route.method} ${expressPath(route.path)}`);
    const login = json.paths['/v1/authmanager/authenticate/internal/useridPwd'].post;
    expect(login.requestBody.content['application/json'].schema.properties.request.required).toEqual(['userName', 'password', 'appId']);
  });

  it('answers a GraphQL request with a malformed JSON body cleanly', async () => {
    const { status, json } = await t.request('POST', '/graphql', { raw: '{"query": ' });
    expect(status).toBe(400);
    expect(json.errors[0].errorCode).toBe('KER-REQ-400');
    expect(JSON.stringify(json)).not.toMatch(/<html|at \w+ \(/);
  });
});

describe('a subgraph running as its own service', () => {
  let db: TestDatabase;
  let subgraph: SubgraphServer;
  let local: TestPlatform;
  let remote: TestPlatform;

  beforeAll(async () => {
    db = await freshDatabase();
    local = await startTestPlatform({}, { database: db.database });
    subgraph = await startSubgraphServer(await local.platform.buildSubgraph(auth), local.platform.deps, 0);
    remote = await startTestPlatform({ SUBGRAPH_AUTH_URL: subgraph.url }, { database: db.database });
  });
  afterAll(async () => {
    await remote?.close();
    await subgraph?.close();
    await local?.close();
    await db?.drop();
  });

  it('answers the same REST calls through the remote route as in-process, with the caller token forwarded', async () => {
    const body = envelopeOf({ userName: 'admin', password: ADMIN_PASSWORD, appId: 'admin' });
    const viaLocal = await local.request('POST', '/v1/authmanager/authenticate/internal/useridPwd', { body });
    const viaRemote = await remote.request('POST', '/v1/authmanager/authenticate/internal/useridPwd', { body });
    expect(viaRemote.json.errors).toBeNull();
    const shape = (json: any) => ({ ...json, responsetime: 'T', response: { ...json.response, token: 'T', refreshToken: 'T' } });
    expect(shape(viaRemote.json)).toEqual(shape(viaLocal.json));

    const token = viaRemote.json.response.token;
    const validLocal = await local.request('GET', '/v1/authmanager/authorize/admin/validateToken', { headers: cookieHeader(token) });
    const validRemote = await remote.request('GET', '/v1/authmanager/authorize/admin/validateToken', { headers: cookieHeader(token) });
    expect({ ...validRemote.json, responsetime: 'T' }).toEqual({ ...validLocal.json, responsetime: 'T' });
    expect(validRemote.json.response.userId).toBe('admin');

    for (const target of [remote, local]) {
      const noCookie = await target.request('GET', '/v1/authmanager/authorize/admin/validateToken');
      expect(noCookie.json.errors[0].errorCode).toBe('KER-ATH-006');
    }
    await remote.request('POST', '/v1/authmanager/authorize/invalidateToken', { headers: cookieHeader(token) });
    for (const target of [remote, local]) {
      const after = await target.request('GET', '/v1/authmanager/authorize/admin/validateToken', { headers: cookieHeader(token) });
      expect(after.json.errors[0].errorCode).toBe('KER-ATH-008');
    }
  });
});

describe('health with the queue down', () => {
  it('stays ready when nothing needs the broker (local de-duplication), and says the queue is DOWN', async () => {
    const t = await startTestPlatform({ STOMP_URL: 'stomp://127.0.0.1:1' });
    try {
      for (const path of ['/health', '/health/ready']) {
        const { status, json } = await t.request('GET', path);
        expect(status).toBe(200);
        expect(['DOWN', 'CONNECTING']).toContain(json.components.queue.status);
        expect(json.components.queue.details.required).toBe(false);
      }
    } finally {
      await t.close();
    }
  });

  it('is not ready while the broker an ABIS de-duplicates through cannot be reached; liveness stays UP', async () => {
    const t = await startTestPlatform({ STOMP_URL: 'stomp://127.0.0.1:1', REGPROC_DEDUPE: 'abis' });
    try {
      for (const path of ['/health', '/health/ready']) {
        const { status, json } = await t.request('GET', path);
        expect(status).toBe(503);
        expect(json.status).toBe('DOWN');
        expect(json.components.database.status).toBe('UP');
        expect(['DOWN', 'CONNECTING']).toContain(json.components.queue.status);
      }
      expect((await t.request('GET', '/health/live')).status).toBe(200);
    } finally {
      await t.close();
    }
  });

  it('is not ready when no job runner is alive anywhere: what is enqueued would never run', async () => {
    const t = await startTestPlatform({ JOBS_RUN: 'false' });
    try {
      const { status, json } = await t.request('GET', '/health/ready');
      expect(status).toBe(503);
      expect(json.components.jobRunners).toEqual({ status: 'DOWN', details: { alive: [], runsHere: false } });
    } finally {
      await t.close();
    }
  });
});

describe('an internal failure', () => {
  it('reaches REST and GraphQL callers as the internal code only: no message text, SQL or stack trace', async () => {
    const db = await freshDatabase();
    const lines: string[] = [];
    const logger = pino({ level: 'error' }, { write: (line: string) => void lines.push(line) });
    const t = await startTestPlatform({}, { database: db.database }, { logger });
    try {
      const admin = cookieHeader(await t.adminToken());
      // The database goes away under the running platform: every query now fails inside a resolver.
      await db.cutOff();
      const graphql = await t.graphql('{ licensePermissionValues users(first: 5) { edges { node { userId } } } }', {}, admin);
      const rest = await t.request('GET', '/v1/licensekeymanager/license/permission?licenseKey=abcd&MISPId=misp-1', { headers: admin });
      for (const answer of [graphql, rest.json]) {
        const text = JSON.stringify(answer);
        expect(text).not.toMatch(/closed|pool|prisma|SELECT|auth_user|\.ts:\d+|at \w+ \(/i);
      }
      expect(graphql.errors.map((e: any) => [e.message, e.extensions.code])).toContainEqual(['Internal server error', 'INTERNAL_SERVER_ERROR']);
      expect(rest.status).toBe(200);
      expect(rest.json.response).toBeNull();
      expect(rest.json.errors).toEqual([{ errorCode: 'KER-LKM-500', message: 'Internal server error' }]);
      // the detail is in the log, for the operator
      expect(lines.join('\n')).toMatch(/closed|pool|Cannot use|accepting connections/i);
    } finally {
      await t.close();
      await db.drop();
    }
  });
});
