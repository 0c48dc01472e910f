// `npm run subgraph -- auth` and `npm run worker` beside a gateway that runs no job, on one
// PostgreSQL: the gateway serves through the separate subgraph, the worker carries a packet to
// PROCESSED, and with an OpenTelemetry collector set, each request's spans join one trace across
// the three processes (the subgraph fetch carries `traceparent`, the jobs keep the enqueuer's).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openDatabase, type Database } from '../../lib/db/client.js';
import { encodeNodeId } from '../../lib/graph/nodes.js';
import { startTracing, stopTracing } from '../../lib/tracing.js';
import { REST_ROUTES, ROLE_TABLE } from '../../gateway/components.js';
import { auth } from '../../subgraphs/auth/index.js';
import { JOB_STAGES, STAGE_JOBS } from '../../subgraphs/regproc/pipeline/stages.js';
import { startOtlpCollector, type CollectedSpan, type OtlpCollector } from '../support/otlp-collector.js';
import { ADMIN_PASSWORD, cookieHeader, envelopeOf, startTestPlatform, TEST_MASTER_KEY, type TestPlatform } from '../support/platform.js';
import { createTestDatabase } from '../support/postgres.js';
import { runNpmScript, type PlatformProcess } from '../support/process.js';
import { registrationClient } from '../support/regproc.js';
import { forgeTokens, guardedCalls, needsToken, servedSchema } from '../support/token-attacks.js';
import { freePort, waitFor } from '../support/wait.js';

const LOGIN = '/v1/authmanager/authenticate/internal/useridPwd';
const UPLOAD = '/registrationprocessor/v1/packetreceiver/registrationpackets';
/** the worker's /metrics answers only scrapes that carry it */
const SCRAPE_TOKEN = 'scrape-token-of-the-test';
/** OTLP's span kinds */
const SERVER = 2;
const CONSUMER = 5;

describe('npm run subgraph -- auth and npm run worker as their own processes on PostgreSQL, traced', () => {
  let server: { url: string; drop(): Promise<void> };
  let subgraph: PlatformProcess;
  let worker: PlatformProcess;
  let database: Database;
  let gateway: TestPlatform;
  let collector: OtlpCollector;
  let port: number;
  let workerPort: number;
  let dataDir: string;

  beforeAll(async () => {
    server = await createTestDatabase(inject('postgresTemplate'));
    collector = await startOtlpCollector();
    dataDir = mkdtempSync(path.join(tmpdir(), 'subgraph-process-'));
    port = await freePort();
    workerPort = await freePort();
    const shared = {
      DATABASE_URL: server.url,
      PLATFORM_MASTER_KEY: TEST_MASTER_KEY,
      PLATFORM_ADMIN_PASSWORD: ADMIN_PASSWORD,
      PLATFORM_DATA_DIR: dataDir,
      PLATFORM_UIN_POOL_SIZE: '20',
      PLATFORM_UIN_POOL_THRESHOLD: '5',
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.endpoint,
      LOG_LEVEL: 'info',
    };
    subgraph = runNpmScript(['run', 'subgraph', '--', 'auth'], { ...shared, SUBGRAPH_PORT: String(port) });
    worker = runNpmScript(['run', 'worker'], {
      ...shared,
      JOBS_POLL_MS: '100',
      WORKER_PORT: String(workerPort),
      WORKER_HOST: '127.0.0.1',
      PLATFORM_INSTANCE_ID: 'worker-1',
      PLATFORM_METRICS_TOKEN: SCRAPE_TOKEN,
    });
    await Promise.all([
      subgraph.waitForOutput('subgraph auth listening', 'the subgraph to start'),
      worker.waitForOutput('job worker running', 'the worker to start'),
    ]);
    database = await openDatabase({ url: server.url, migrate: false });
    // This test process is the gateway: its spans go to the same collector, as `npm start`'s would.
    await startTracing({ endpoint: collector.endpoint, serviceName: 'platform', instanceId: 'test', version: 'test' });
    gateway = await startTestPlatform(
      { SUBGRAPH_AUTH_URL: `http://127.0.0.1:${port}/graphql`, JOBS_RUN: 'false', PLATFORM_SAMPLE_DATA: 'true', PLATFORM_DATA_DIR: dataDir },
      { database },
    );
  }, 120_000);

  afterAll(async () => {
    await gateway?.close();
    await stopTracing();
    expect(await subgraph?.stop('SIGTERM')).toBe(0);
    expect(subgraph.output()).toContain('"msg":"stopped"');
    expect(await worker?.stop('SIGTERM')).toBe(0);
    await database?.close();
    await server?.drop();
    await collector?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('serves the gateway: login, validation and invalidation go through the separate process', async () => {
    const login = await gateway.request('POST', LOGIN, { body: envelopeOf({ userName: 'admin', password: ADMIN_PASSWORD, appId: 'admin' }) });
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
    // a GraphQL login served by the separate process sets the session cookies on the gateway's answer
    const graphqlLogin = await fetch(`${gateway.baseUrl}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        query: `mutation { loginWithPassword(input: { userName: "admin", password: "${ADMIN_PASSWORD}", appId: "admin" }) { passwordLogin { userId } } }`,
      }),
    });
    expect((await graphqlLogin.json()).data.loginWithPassword.passwordLogin.userId).toBe('admin');
    expect(graphqlLogin.headers.getSetCookie()).toEqual([
      expect.stringMatching(/^Authorization=Platform-Token\S+; Max-Age=\d+; Path=\/; Secure; HttpOnly; SameSite=Lax$/),
      expect.stringMatching(/^refresh_token=\S+; Max-Age=\d+; Path=\/graphql; Secure; HttpOnly; SameSite=Strict$/),
    ]);
    // node(id:) asks the separate process whether the entity is there (and for whom) before the gateway reads it
    const fresh = (await gateway.request('POST', LOGIN, { body: envelopeOf({ userName: 'admin', password: ADMIN_PASSWORD, appId: 'admin' }) })).json.response
      .token as string;
    const nodeOf = async (userId: string) =>
      gateway.graphql('query($id: ID!) { node(id: $id) { nodeId ... on User { userId } } }', { id: encodeNodeId('User', [userId]) }, cookieHeader(fresh));
    expect((await nodeOf('admin')).data.node).toEqual({ nodeId: encodeNodeId('User', ['admin']), userId: 'admin' });
    expect(await nodeOf('nobody-here')).toEqual({ data: { node: null } });
    expect(subgraph.output()).not.toContain(ADMIN_PASSWORD);
    expect(subgraph.output()).not.toContain(token);
    expect(worker.output()).not.toContain(SCRAPE_TOKEN);
  });

  it("refuses forged and spent tokens on each of the subgraph's guarded fields, through the gateway and sent to it directly", async () => {
    const { attacks, control } = await forgeTokens(gateway);
    const own = new Set(Object.keys(auth.access));
    const calls = guardedCalls(await servedSchema(gateway, control), ROLE_TABLE, own);
    const routes = REST_ROUTES.filter((route) => route.rootFields.every((field) => own.has(field) && needsToken(ROLE_TABLE, field)));
    expect(calls.length).toBeGreaterThan(10);
    expect(routes.map((route) => route.path)).toEqual(['/v1/authmanager/authorize/admin/validateToken', '/v1/authmanager/authorize/invalidateToken']);
    const direct = async (query: string, variables: Record<string, unknown>, token: string) =>
      (await fetch(`http://127.0.0.1:${port}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...cookieHeader(token) },
        body: JSON.stringify({ query, variables }),
      }).then((answer) => answer.json())) as { data?: Record<string, unknown> | null; errors?: { extensions?: { code?: string } }[] };
    // The control is taken both ways, so a refusal below is the token's.
    expect((await direct('{ validateToken { userId } }', {}, control)).data).toEqual({ validateToken: { userId: 'admin' } });
    const accepted: string[] = [];
    const refusedAsCaller = (answer: { data?: Record<string, unknown> | null; errors?: { extensions?: { code?: string } }[] }) =>
      /^KER-ATH-(401|008)$/.test(answer.errors?.[0]?.extensions?.code ?? '') && Object.values(answer.data ?? {}).every((value) => value === null);
    for (const [name, token] of Object.entries(attacks)) {
      for (const call of calls) {
        if (!refusedAsCaller(await gateway.graphql(call.query, call.variables, cookieHeader(token)))) accepted.push(`${name}: gateway ${call.operation}`);
        if (!refusedAsCaller(await direct(call.query, call.variables, token))) accepted.push(`${name}: direct ${call.operation}`);
      }
      for (const route of routes) {
        const body = ['post', 'put', 'patch'].includes(route.method) ? envelopeOf({}) : undefined;
        const { json } = await gateway.request(route.method.toUpperCase(), route.path.replace(/\{[^}]+\}/g, 'x1'), { body, headers: cookieHeader(token) });
        if (!/^KER-ATH-(401|008)$/.test(json?.errors?.[0]?.errorCode ?? '') || (json?.response ?? null) !== null) accepted.push(`${name}: REST ${route.path}`);
      }
    }
    expect(accepted).toEqual([]);
  });

  /** The spans of a trace, once `done` holds of them (the processes export in batches, each within a second or so). */
  const traceOf = async (root: (span: CollectedSpan) => boolean, done: (spans: CollectedSpan[]) => boolean, what: string) => {
    let spans: CollectedSpan[] = [];
    await waitFor(
      () => {
        const first = collector.spans.find(root);
        spans = first ? collector.spans.filter((span) => span.traceId === first.traceId) : [];
        return spans.length > 0 && done(spans);
      },
      what,
      30_000,
    );
    return spans;
  };

  /** Whether `span` descends from `ancestor` through the parents the trace holds. */
  const descends = (spans: CollectedSpan[], span: CollectedSpan, ancestor: CollectedSpan) => {
    const byId = new Map(spans.map((each) => [each.spanId, each]));
    for (let at: CollectedSpan | undefined = span; at; at = at.parentSpanId ? byId.get(at.parentSpanId) : undefined) if (at === ancestor) return true;
    return false;
  };

  it('joins a REST login into one trace across the gateway and the subgraph service', async () => {
    const login = await gateway.request('POST', LOGIN, { body: envelopeOf({ userName: 'admin', password: ADMIN_PASSWORD, appId: 'admin' }) });
    expect(login.json.response.userId).toBe('admin');
    const isLogin = (span: CollectedSpan) => span.kind === SERVER && span.service === 'platform' && span.attributes['http.route'] === LOGIN;
    const spans = await traceOf(isLogin, (found) => found.some((span) => span.service === 'subgraph'), 'the login trace with the subgraph');
    const request = spans.find(isLogin)!;
    expect(request.name).toBe(`POST ${LOGIN}`);
    expect(request.attributes['http.response.status_code']).toBe(200);
    const served = spans.find((span) => span.service === 'subgraph' && span.kind === SERVER)!;
    expect(served).toMatchObject({ name: 'POST /graphql', attributes: expect.objectContaining({ 'http.route': '/graphql' }) });
    // the subgraph's server span hangs under the gateway's request (through Apollo's own fetch span)
    expect(descends(spans, served, request)).toBe(true);
    // nothing of the caller's secret is in any span
    expect(JSON.stringify(collector.spans)).not.toContain(ADMIN_PASSWORD);
    expect(JSON.stringify(collector.spans)).not.toContain(login.json.response.token);
  });

  it("carries a packet upload's trace into the jobs the worker runs, each stage a span of its own", async () => {
    const admin = cookieHeader(await gateway.adminToken());
    const client = await registrationClient(gateway, admin);
    const built = client.build('traced');
    await client.submit(built);
    expect(await client.settle(built.rid, undefined, 60_000)).toBe('PROCESSED');
    const isUpload = (span: CollectedSpan) => span.kind === SERVER && span.attributes['http.route'] === UPLOAD;
    const stagesOf = (spans: CollectedSpan[]) =>
      spans.filter((span) => span.service === 'worker' && span.attributes['platform.registration.rid'] === built.rid);
    const spans = await traceOf(
      isUpload,
      (found) => stagesOf(found).some((span) => span.attributes['platform.registration.outcome'] === 'processed'),
      'the upload trace to the last stage',
    );
    const upload = spans.find(isUpload)!;
    const stages = stagesOf(spans);
    // a new registration changes no identity: every stage but the resident's biometric authentication, once each
    const expected = JOB_STAGES.filter((stage) => stage !== 'BIOMETRIC_AUTHENTICATION').map((stage) => `job ${STAGE_JOBS[stage]}`);
    expect(stages.map((span) => span.name).sort()).toEqual(expected.sort());
    for (const stage of stages) {
      expect(stage.kind).toBe(CONSUMER);
      expect(descends(spans, stage, upload)).toBe(true);
    }
    // the spans say which registration, never whose: no name or UIN of the resident
    const [fullName] = built.resident.identity.fullName as { value: string }[];
    expect(JSON.stringify(collector.spans)).not.toContain(fullName!.value);
    expect(JSON.stringify(collector.spans)).not.toContain(built.resident.identity.email as string);
  });

  it("serves the worker's probes and metrics on WORKER_PORT (a scrape with PLATFORM_METRICS_TOKEN only), the stage runs it made counted there", async () => {
    const base = `http://127.0.0.1:${workerPort}`;
    const ready = await fetch(`${base}/health/ready`);
    expect(ready.status).toBe(200);
    const report = (await ready.json()) as { instance: string; components: { jobRunners: { details: { runsHere: boolean } } } };
    expect(report.instance).toBe('worker-1');
    expect(report.components.jobRunners.details.runsHere).toBe(true);
    expect((await fetch(`${base}/health/live`)).status).toBe(200);
    const refused = await fetch(`${base}/metrics`, { headers: { authorization: 'Bearer not-the-token' } });
    expect(refused.status).toBe(401);
    expect(await refused.text()).not.toContain('platform_');
    expect((await fetch(`${base}/metrics`)).status).toBe(401);
    const text = await (await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${SCRAPE_TOKEN}` } })).text();
    // the packet of the test above went through this worker: its last stage counted here, with the worker's instance
    expect(text).toMatch(/platform_regproc_stage_duration_seconds_count\{[^}]*stage="UIN_GENERATOR"[^}]*outcome="processed"[^}]*\} [1-9]/);
    expect(text).toMatch(/platform_jobs\{[^}]*instance="worker-1"/);
    // nothing else is served: no API on a worker
    expect((await fetch(`${base}/graphql`, { method: 'POST' })).status).toBe(404);
  });
});
