// /metrics: Prometheus text from the platform's own registry, every series labelled with the instance;
// the request, GraphQL and stage series move as requests come and a packet goes through the pipeline;
// the database-backed gauges (jobs, outbox, ABIS, registrations, UIN pool, pool) are read at scrape
// time, and a failing one leaves the scrape standing; PLATFORM_METRICS=false serves no /metrics.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobQueue } from '../../lib/jobs/queue.js';
import { startTestPlatform, type TestPlatform, useTestPlatform } from '../support/platform.js';
import { registrationClient } from '../support/regproc.js';

type Labels = Record<string, string>;
interface Sample {
  name: string;
  labels: Labels;
  value: number;
}

/** The samples of a Prometheus text exposition. */
function parse(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) continue;
    const labels: Labels = {};
    for (const [, key, value] of (match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[key!] = value!;
    samples.push({ name: match[1]!, labels, value: Number(match[3]) });
  }
  return samples;
}

/** The value of the one series of `name` whose labels include `labels` (undefined: no such series). */
function valueOf(samples: Sample[], name: string, labels: Labels = {}): number | undefined {
  return samples.find((sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value))?.value;
}

let t: TestPlatform;
let admin: Record<string, string>;
useTestPlatform({ PLATFORM_SAMPLE_DATA: 'true', PLATFORM_INSTANCE_ID: 'metrics-test-1' }, (platform, adminCookie) => {
  t = platform;
  admin = adminCookie;
});

async function scrape(): Promise<Sample[]> {
  const response = await fetch(`${t.baseUrl}/metrics`);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return parse(await response.text());
}

/** Scrapes until `check` holds (the gauges are read at most every 5 s), for at most 15 s. */
async function scrapeUntil(check: (samples: Sample[]) => boolean, what: string): Promise<Sample[]> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const samples = await scrape();
    if (check(samples)) return samples;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what} in /metrics`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

const POOL_QUERY = 'query MetricsPool { uinPool { unused size threshold } }';

describe('/metrics', () => {
  it('labels every series with the instance id and tells the database, queue, pool and UIN gauges', async () => {
    const samples = await scrape();
    expect(samples.length).toBeGreaterThan(50);
    expect(samples.filter((sample) => sample.labels.instance !== 'metrics-test-1')).toEqual([]);
    expect(valueOf(samples, 'platform_database_up')).toBe(1);
    expect(valueOf(samples, 'platform_queue_state', { state: 'DISABLED' })).toBe(1);
    expect(valueOf(samples, 'platform_db_pool_max_connections')).toBe(10);
    expect(valueOf(samples, 'platform_db_pool_connections')).toBeGreaterThan(0);
    expect(valueOf(samples, 'platform_uin_pool_threshold')).toBe(5);
    expect(valueOf(samples, 'platform_uin_pool_size')).toBe(20);
    expect(valueOf(samples, 'platform_uin_pool_unused')).toEqual(expect.any(Number));
    // Every declared job kind has its series, at 0 when it has no job.
    expect(valueOf(samples, 'platform_jobs', { kind: 'regproc.uin-generator', state: 'dead' })).toBe(0);
    expect(valueOf(samples, 'platform_outbox_backlog', { outbox: 'notify' })).toEqual(expect.any(Number));
    expect(valueOf(samples, 'platform_registrations_stuck')).toBe(0);
    expect(valueOf(samples, 'process_cpu_user_seconds_total')).toEqual(expect.any(Number));
  });

  it('moves the request, GraphQL and stage series: a REST call, a named operation, a refusal, a packet through the pipeline', async () => {
    const before = await scrape();
    const certificate = { route: '/v1/keymanager/getCertificate', method: 'GET', status_class: '2xx', outcome: 'ok' };
    const graphqlRefused = { route: '/graphql', method: 'POST', status_class: '2xx', outcome: 'refused' };
    const count = (samples: Sample[], name: string, labels: Labels) => valueOf(samples, name, labels) ?? 0;

    const client = await registrationClient(t, admin); // reads the REGISTRATION certificate: the REST call
    expect((await t.graphql(POOL_QUERY, {}, admin)).errors).toBeUndefined();
    const refused = await t.graphql('query MetricsRefused { uinPool { unused } }');
    const code = refused.errors[0].extensions.code as string;
    expect(code).toMatch(/^KER-ATH-/);
    const built = client.build('metrics-packet');
    await client.submit(built);
    expect(await client.settle(built.rid)).toBe('PROCESSED');

    const after = await scrape();
    expect(count(after, 'platform_http_requests_total', certificate)).toBeGreaterThan(count(before, 'platform_http_requests_total', certificate));
    expect(count(after, 'platform_http_requests_total', graphqlRefused)).toBe(count(before, 'platform_http_requests_total', graphqlRefused) + 1);
    const certificateLatency = { route: certificate.route, method: 'GET', status_class: '2xx' };
    expect(count(after, 'platform_http_request_duration_seconds_count', certificateLatency)).toBeGreaterThan(
      count(before, 'platform_http_request_duration_seconds_count', certificateLatency),
    );
    expect(count(after, 'platform_graphql_operations_total', { operation: 'MetricsPool', outcome: 'ok' })).toBe(
      count(before, 'platform_graphql_operations_total', { operation: 'MetricsPool', outcome: 'ok' }) + 1,
    );
    expect(count(after, 'platform_graphql_operations_total', { operation: 'MetricsRefused', outcome: code })).toBe(1);
    expect(count(after, 'platform_graphql_operation_duration_seconds_count', { operation: 'MetricsPool' })).toBeGreaterThanOrEqual(1);
    // The stage durations: each stage a NEW packet goes through, observed once more.
    for (const [stage, outcome] of [
      ['UPLOAD_PACKET', 'success'],
      ['VALIDATE_PACKET', 'success'],
      ['BIOGRAPHIC_VERIFICATION', 'success'],
      ['UIN_GENERATOR', 'processed'],
    ] as const) {
      const labels = { stage, outcome };
      expect(count(after, 'platform_regproc_stage_duration_seconds_count', labels), stage).toBe(
        count(before, 'platform_regproc_stage_duration_seconds_count', labels) + 1,
      );
    }
    // Route templates only: the packet's RID never appears, nor the scrapes themselves.
    const text = await (await fetch(`${t.baseUrl}/metrics`)).text();
    expect(text).not.toContain(built.rid);
    expect(after.filter((sample) => sample.labels.route === '/metrics')).toEqual([]);
    // A packet upload refused for its body is counted by its route template too.
    const upload = { route: '/registrationprocessor/v1/packetreceiver/registrationpackets', method: 'POST' };
    expect(count(after, 'platform_http_requests_total', { ...upload, outcome: 'ok' })).toBeGreaterThanOrEqual(1);
  });

  it('counts jobs by kind and state at scrape time: a dead job, a queued one and the age of the oldest due', async () => {
    const jobs = t.platform.deps.jobs as JobQueue;
    jobs.define({
      'test.metrics-fails': { maxAttempts: 1, run: () => Promise.reject(new Error('this job always fails')) },
      'test.metrics-later': { run: () => Promise.resolve() },
    });
    const enqueue = (kind: string, runAt?: Date) => jobs.enqueue(kind as never, {} as never, runAt ? { runAt } : {});
    await enqueue('test.metrics-fails');
    await enqueue('test.metrics-later', new Date(t.clock.now().getTime() + 3_600_000));
    const samples = await scrapeUntil((found) => valueOf(found, 'platform_jobs', { kind: 'test.metrics-fails', state: 'dead' }) === 1, 'the dead job');
    expect(valueOf(samples, 'platform_jobs', { kind: 'test.metrics-later', state: 'queued' })).toBe(1);
    // Queued for later is not late: waiting starts when a job is due.
    expect(valueOf(samples, 'platform_jobs_oldest_due_seconds', { kind: 'test.metrics-later' })).toBe(0);

    // With the runner stopped, a due job waits: its age is told.
    await t.platform.jobs.stop();
    await enqueue('test.metrics-later', new Date(t.clock.now().getTime() - 60_000));
    const waiting = await scrapeUntil((found) => valueOf(found, 'platform_jobs', { kind: 'test.metrics-later', state: 'queued' }) === 2, 'the due job');
    expect(valueOf(waiting, 'platform_jobs_oldest_due_seconds', { kind: 'test.metrics-later' })).toBeGreaterThanOrEqual(60);
    await t.platform.jobs.start();
  });

  it('leaves a failing collector out of the scrape, counted, and serves the rest', async () => {
    const pool = t.platform.deps.services.uinPool;
    const unused = pool.unused.bind(pool);
    pool.unused = () => Promise.reject(new Error('the pool is out of reach'));
    try {
      const samples = await scrapeUntil((found) => valueOf(found, 'platform_uin_pool_unused') === undefined, 'the UIN pool gauge left out');
      expect(valueOf(samples, 'platform_database_up')).toBe(1);
      expect(valueOf(samples, 'platform_jobs', { kind: 'regproc.uin-generator', state: 'dead' })).toBe(0);
      // The failure is counted as it happens: the next scrape (reading, and failing, again) shows it.
      expect(valueOf(await scrape(), 'platform_metrics_collector_failures_total', { collector: 'uin_pool' })).toBeGreaterThanOrEqual(1);
    } finally {
      pool.unused = unused;
    }
  });
});

describe('PLATFORM_METRICS=false', () => {
  let off: TestPlatform;
  beforeAll(async () => {
    off = await startTestPlatform({ PLATFORM_METRICS: 'false' });
  });
  afterAll(async () => {
    await off?.close();
  });

  it('serves no /metrics (404), and the requests are still served', async () => {
    const { status, json } = await off.request('GET', '/metrics');
    expect(status).toBe(404);
    expect(json.errors[0].errorCode).toBe('KER-REQ-404');
    expect((await off.request('GET', '/health')).status).toBe(200);
  });
});
