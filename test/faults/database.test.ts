// The database failing under the platform, on the machine's PostgreSQL (`npm run test:faults`;
// not in `npm test`: restarting the server would fail every other file running beside it). Under a
// stream of identity creates, the platform's connections are terminated mid-request, then the
// server itself is restarted with a packet in the pipeline. Pass: every answer is an envelope,
// every create answered as done is there once and whole, none answered as failed is half there,
// the packet ends PROCESSED with one identity, and the platform answers again within 5 s of the
// fault's end.
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { idrepoCalls } from '../support/identities.js';
import { cookieHeader, startTestPlatform, type TestPlatform } from '../support/platform.js';
import { withAdminClient } from '../support/postgres.js';
import { registrationClient } from '../support/regproc.js';

let t: TestPlatform;
let processor: Record<string, string>;
let admin: Record<string, string>;
let ticking: NodeJS.Timeout;
const { send, newUin, create } = idrepoCalls(() => t);

beforeAll(async () => {
  t = await startTestPlatform({ PLATFORM_SAMPLE_DATA: 'true', REGPROC_REPROCESS_ELAPSE_SECONDS: '1' }, undefined, { database: 'postgres' });
  processor = cookieHeader((await t.clientToken(['REGISTRATION_PROCESSOR'], 'registrationprocessor')).token);
  admin = cookieHeader(await t.adminToken());
  // Time runs here as in production: a job whose outcome the outage lost is claimed again when its lease ends.
  ticking = setInterval(() => t.clock.advance(100), 100);
});
afterAll(async () => {
  clearInterval(ticking);
  await t?.close();
});

/** The platform's database: the one its pool is connected to. */
const databaseName = async () => (await t.platform.deps.prisma.$queryRawUnsafe<{ name: string }[]>('SELECT current_database() AS name'))[0]!.name;

/** Milliseconds from now until the platform answers a read of `uin` again (polled every 100 ms, at most `ms`). */
async function msUntilAnswering(uin: string, ms = 30_000): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < ms) {
    const answer = await send(processor, 'GET', `/uin/${uin}`).catch(() => undefined);
    if (answer?.json?.response?.identity?.UIN === uin) return Date.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return Number.POSITIVE_INFINITY;
}

/** Creates `count` identities, `width` at a time, calling `midway` once half were sent: each UIN and how it was answered. */
async function createsAcross(count: number, width: number, midway: () => Promise<void>) {
  const outcomes: { uin: string; status: number; code: string | undefined; done: boolean }[] = [];
  let next = 0;
  let fault: Promise<void> | undefined;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < count) {
        if (next >= count / 2) fault ??= midway();
        next++;
        const uin = newUin();
        const { status, json } = await create(processor, uin);
        outcomes.push({ uin, status, code: json?.errors?.[0]?.errorCode, done: json?.response?.status === 'ACTIVATED' });
      }
    }),
  );
  await fault;
  return outcomes;
}

/** Every create answered as done is stored once and reads back whole; every refused one is absent (or, committed before its answer was lost, whole). */
async function expectNothingLostOrHalf(outcomes: Awaited<ReturnType<typeof createsAcross>>) {
  for (const outcome of outcomes) {
    expect(outcome.status, JSON.stringify(outcome)).toBeLessThan(500);
    if (!outcome.done) expect(outcome.code, JSON.stringify(outcome)).toMatch(/^[A-Z]+-[A-Z]+-\d+$/);
    const read = await send(processor, 'GET', `/uin/${outcome.uin}?type=all`);
    if (outcome.done) expect(read.json.response?.identity?.UIN, outcome.uin).toBe(outcome.uin);
    if (read.json.response) expect(read.json.response.documents).toHaveLength(2);
  }
  expect(outcomes.filter((outcome) => outcome.done).length).toBeGreaterThan(0);
}

describe('the database failing under load', () => {
  it('answers every create while its connections are terminated, loses none it answered as done, and answers again within 5 s', async () => {
    const name = await databaseName();
    let faultEnded = 0;
    const outcomes = await createsAcross(80, 8, async () => {
      await withAdminClient((client) =>
        client.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [name]),
      );
      faultEnded = Date.now();
    });
    expect(faultEnded).toBeGreaterThan(0);
    await expectNothingLostOrHalf(outcomes);
    const probe = outcomes.find((outcome) => outcome.done)!.uin;
    expect(await msUntilAnswering(probe)).toBeLessThan(5_000);
  });

  it('carries a packet through a restart of PostgreSQL to PROCESSED with one identity, and answers again within 5 s of the server being back', async () => {
    const client = await registrationClient(t, admin);
    const built = client.build('through-a-restart');
    const uin = newUin();
    await create(processor, uin);
    await client.submit(built);
    const version = readdirSync('/etc/postgresql').sort().at(-1)!;
    // stop, a pause the platform must ride out, start: the server's own restart, as an operator's maintenance does it
    execFileSync('pg_ctlcluster', ['--skip-systemctl-redirect', version, 'main', 'stop', '-m', 'fast'], { stdio: 'ignore' });
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const during = await send(processor, 'GET', `/uin/${uin}`);
    expect(during.status).toBeLessThan(500);
    expect(during.json.errors?.[0]?.errorCode).toMatch(/^IDR-/);
    execFileSync('pg_ctlcluster', ['--skip-systemctl-redirect', version, 'main', 'start'], { stdio: 'ignore' });
    const back = Date.now();
    const answeringAfter = await msUntilAnswering(uin);
    console.log(`answering ${answeringAfter} ms after the server was back`);
    expect(answeringAfter).toBeLessThan(5_000);
    expect(Date.now() - back).toBeLessThan(5_000);
    const final = await client.settle(built.rid, undefined, 60_000);
    const row = await t.platform.deps.prisma.registration.findUnique({ where: { rid: built.rid } });
    expect(final, JSON.stringify(row)).toBe('PROCESSED');
    expect(await t.platform.deps.prisma.identity.count({ where: { registrationId: built.rid } })).toBe(1);
  }, 180_000);
});
