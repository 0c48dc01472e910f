// The registration pipeline run by `npm run worker` processes beside an instance that runs no
// job (JOBS_RUN=false), on one PostgreSQL: a worker killed with SIGKILL in the middle of any
// stage leaves the packet to the next worker, which carries it to PROCESSED once (one identity,
// one notification, each stage's SUCCESS once); and two workers share a batch of packets, each
// processed once (their wall times, one worker against two, are printed for BENCHMARKS.md).
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { openDatabase, type Database } from '../../lib/db/client.js';
import { syncRecordOf } from '../../lib/packet/write.js';
import { JOB_STAGES, STAGE_JOBS, type JobStage } from '../../subgraphs/regproc/pipeline/stages.js';
import { cookieHeader, startTestPlatform, TEST_MASTER_KEY, type TestPlatform } from '../support/platform.js';
import { createTestDatabase } from '../support/postgres.js';
import { FINAL_STATUSES, PROCESSED_TRANSACTIONS, REGPROC as BASE, registrationClient, type BuiltPacket, type RegistrationClient } from '../support/regproc.js';
import { waitFor } from '../support/wait.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** The stages a new registration runs: it changes no identity, so no resident's biometric authentication. */
const NEW_STAGES = JOB_STAGES.filter((stage) => stage !== 'BIOMETRIC_AUTHENTICATION');
const LEASE_MS = 1000;
/** packets of each throughput batch */
const BATCH = 200;
const SYNC_BATCH = 20;

let server: Awaited<ReturnType<typeof createTestDatabase>>;
let database: Database;
let dataDir: string;
let t: TestPlatform;
let admin: Record<string, string>;
let client: RegistrationClient;

// The instance enqueues the stages' jobs but runs none: only the worker processes do.
const PLATFORM_ENV = {
  PLATFORM_SAMPLE_DATA: 'true',
  JOBS_RUN: 'false',
  JOBS_POLL_MS: '100',
  REGPROC_STAGE_LEASE_MS: String(LEASE_MS),
  PLATFORM_UIN_POOL_SIZE: '20',
  PLATFORM_UIN_POOL_THRESHOLD: '5',
};

beforeAll(async () => {
  server = await createTestDatabase(inject('postgresTemplate'));
  database = await openDatabase({ url: server.url, migrate: false });
  dataDir = mkdtempSync(path.join(tmpdir(), 'regproc-workers-'));
  // The packets land in the object store under this folder, which the workers read too.
  t = await startTestPlatform({ ...PLATFORM_ENV, PLATFORM_DATA_DIR: dataDir }, { database });
  admin = cookieHeader(await t.adminToken());
  // Its RIDs count on one sequence for the whole file; the clock stands still within a test, so the
  // two batches' 400 packets share one time and differ by that sequence alone (below its 100000).
  client = await registrationClient(t, admin);
});

afterAll(async () => {
  for (const worker of workers.splice(0)) worker.child.kill('SIGKILL');
  await t?.close();
  await database?.close();
  await server?.drop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

interface Worker {
  child: ChildProcessWithoutNullStreams;
  output(): string;
  /** resolves once the worker's runner has started (its `job worker running` line) */
  ready: Promise<void>;
  exited: Promise<number | null>;
  /** SIGKILL, and its exit */
  kill(): Promise<void>;
}

const workers: Worker[] = [];

afterEach(async () => {
  for (const worker of workers.splice(0)) await worker.kill();
});

/**
 * `npm run worker` without npm in between (the same `node --import tsx scripts/worker.ts` it
 * execs), so that SIGKILL reaches the worker itself: the platform's database, master key and
 * data folder.
 */
function startWorker(env: Record<string, string> = {}): Worker {
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/worker.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATABASE_URL: server.url,
      PLATFORM_MASTER_KEY: TEST_MASTER_KEY,
      PLATFORM_DATA_DIR: dataDir,
      PLATFORM_SAMPLE_DATA: 'false',
      JOBS_POLL_MS: '100',
      REGPROC_STAGE_LEASE_MS: String(LEASE_MS),
      PLATFORM_UIN_POOL_SIZE: PLATFORM_ENV.PLATFORM_UIN_POOL_SIZE,
      PLATFORM_UIN_POOL_THRESHOLD: PLATFORM_ENV.PLATFORM_UIN_POOL_THRESHOLD,
      LOG_LEVEL: 'info',
      ...env,
    },
  });
  let output = '';
  let exitCode: number | null | undefined;
  child.stdout.on('data', (chunk: Buffer) => void (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => void (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  void exited.then((code) => void (exitCode = code));
  const ready = waitFor(
    () => {
      if (exitCode !== undefined) throw new Error(`the worker exited (${exitCode}) before it ran:\n${output}`);
      return output.includes('job worker running');
    },
    'the worker to start',
    90_000,
  ).then(() => undefined);
  ready.catch(() => undefined);
  const worker: Worker = {
    child,
    output: () => output,
    ready,
    exited,
    kill: async () => {
      if (exitCode === undefined) child.kill('SIGKILL');
      await exited;
    },
  };
  workers.push(worker);
  return worker;
}

/** Synced in batches of SYNC_BATCH, then uploaded a few at a time. */
async function submitAll(packets: BuiltPacket[]): Promise<void> {
  for (let i = 0; i < packets.length; i += SYNC_BATCH) await client.sync(packets.slice(i, i + SYNC_BATCH).map((p) => syncRecordOf(p.rid, p.sealed)));
  let next = 0;
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (next < packets.length) {
        const packet = packets[next++]!;
        const { json } = await client.upload(`${packet.rid}.zip`, packet.sealed);
        expect(json.errors, JSON.stringify(json.errors)).toBeNull();
        expect(json.response).toEqual({ status: 'Packet is in PACKET_RECEIVED status' });
      }
    }),
  );
}

const statusOf = async (rid: string) => (await database.prisma.registration.findUnique({ where: { rid } }))?.status;

async function transactionsOf(rid: string): Promise<string[]> {
  const { json } = await t.request('GET', `${BASE}/registrationtransaction/search/eng/${rid}`, { headers: admin });
  return (json.response as { transactionTypeCode: string; statusCode: string }[]).map((row) => `${row.transactionTypeCode}:${row.statusCode}`);
}

const jobsOf = (rid: string) => database.prisma.platformJob.findMany({ where: { payload: { path: ['rid'], equals: rid } }, orderBy: { createdAt: 'asc' } });

/** One PostgreSQL session of the test's own, to hold a registration's row. */
async function session(): Promise<pg.Client & { pid: number }> {
  const client = new pg.Client({ connectionString: server.url });
  await client.connect();
  const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
  return Object.assign(client, { pid: rows[0]!.pid });
}

describe('a worker killed with SIGKILL in the middle of a stage', () => {
  // The pause inside a stage: the test holds the registration's row (SELECT … FOR UPDATE), so a
  // worker that has done a stage's work waits in the transaction that would record it (the job's
  // completion, the move to the next stage, the transactions); it is killed there, with its job
  // RUNNING, its work done (for the UIN stage: the identity already in the ID repository) and
  // nothing of its outcome committed. The platform has no hook of its own for this.
  it.each(NEW_STAGES.map((stage) => [stage]))('%s: the next worker carries the packet to PROCESSED once', async (target: JobStage) => {
    const built = client.build(`crash-${target}`);
    const notificationsBefore = await database.prisma.notification.count();
    await client.submit(built);
    expect(await statusOf(built.rid)).toBe('PACKET_RECEIVED');

    const lock = await session();
    const observer = await session();
    try {
      /** Holds the registration's row; its stage and status, as the last commit left them. */
      const hold = async () => {
        await lock.query('BEGIN');
        const { rows } = await lock.query<{ stage: string; status: string }>('SELECT stage, status FROM regproc_registration WHERE rid = $1 FOR UPDATE', [
          built.rid,
        ]);
        return rows[0]!;
      };
      const waitingOnLock = async () =>
        Number(
          (await observer.query<{ n: string }>('SELECT count(*) AS n FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))', [lock.pid])).rows[0]!.n,
        ) > 0;

      let at = await hold();
      const first = startWorker();
      await first.ready;
      // Each earlier stage is let through; the lock is asked for again at once, so it is granted
      // the instant that stage commits, before the next stage's job can record anything.
      while (at.status === 'PACKET_RECEIVED' || at.status === 'PROCESSING') {
        await waitFor(waitingOnLock, `the worker recording ${at.stage}`, 60_000);
        if (at.stage === target) break;
        await lock.query('ROLLBACK');
        at = await hold();
      }
      expect(at).toMatchObject({ stage: target });

      const running = (await jobsOf(built.rid)).find((job) => job.kind === STAGE_JOBS[target]);
      expect(running).toMatchObject({ state: 'RUNNING', attempts: 1 });
      const identitiesAtKill = await database.prisma.identityRegistration.count({ where: { registrationId: built.rid } });
      await first.kill();
      await lock.query('ROLLBACK');

      // Nothing the killed worker was recording is there: the job still RUNNING on its dead lease.
      expect(await statusOf(built.rid)).toBe(target === 'UPLOAD_PACKET' ? 'PACKET_RECEIVED' : 'PROCESSING');
      expect((await jobsOf(built.rid)).find((job) => job.kind === STAGE_JOBS[target])).toMatchObject({ state: 'RUNNING', lockedBy: running!.lockedBy });
      // The UIN stage was killed after its write to the ID repository.
      expect(identitiesAtKill).toBe(target === 'UIN_GENERATOR' ? 1 : 0);

      startWorker();
      // A final status, or REPROCESS: the end of what the next worker does with it.
      await client.settle(built.rid, (status) => FINAL_STATUSES.has(status ?? '') || status === 'REPROCESS', 60_000);
      expect(await statusOf(built.rid)).toBe('PROCESSED');

      expect(await database.prisma.identityRegistration.count({ where: { registrationId: built.rid } })).toBe(1);
      expect(await database.prisma.identity.count({ where: { registrationId: built.rid } })).toBe(1);
      expect((await t.platform.deps.services.identities.byRegistration(built.rid))?.status).toBe('ACTIVATED');
      expect(await database.prisma.notification.count()).toBe(notificationsBefore + 1);
      expect(await transactionsOf(built.rid)).toEqual(PROCESSED_TRANSACTIONS);
      // One job per stage; the killed one run twice, the others once.
      const jobs = await jobsOf(built.rid);
      expect(jobs.map((job) => [job.kind, job.state, job.attempts])).toEqual(NEW_STAGES.map((stage) => [STAGE_JOBS[stage], 'DONE', stage === target ? 2 : 1]));
    } finally {
      await lock.end();
      await observer.end();
    }
  });
});

describe('workers sharing one PostgreSQL', () => {
  /**
   * A batch uploaded while no worker runs, its first jobs parked until the workers are up, then
   * released: each packet PROCESSED once, each stage job run once by one of them. (How much faster
   * two workers are is the packets benchmark's to measure, not a test's.)
   */
  it(`processes ${BATCH} packets once each with two workers`, { timeout: 300_000 }, async () => {
    const packets = Array.from({ length: BATCH }, (_, index) => client.build(`two-workers-${index}`));
    const rids = packets.map((p) => p.rid);
    expect(new Set(rids).size).toBe(BATCH);
    const notificationsBefore = await database.prisma.notification.count();
    await submitAll(packets);
    const parked = await database.prisma.platformJob.updateMany({
      where: { kind: STAGE_JOBS.UPLOAD_PACKET, state: 'QUEUED' },
      data: { runAt: new Date(Date.now() + 3_600_000) },
    });
    expect(parked.count).toBe(BATCH);

    const started = [startWorker({ REGPROC_DEDUPE: 'none' }), startWorker({ REGPROC_DEDUPE: 'none' })];
    await Promise.all(started.map((worker) => worker.ready));
    await database.prisma.platformJob.updateMany({ where: { kind: STAGE_JOBS.UPLOAD_PACKET, state: 'QUEUED' }, data: { runAt: new Date() } });
    await database.prisma.$queryRaw`SELECT pg_notify('platform_jobs', 'regproc.upload-packet')::text AS sent`;

    const open = async () => database.prisma.registration.count({ where: { rid: { in: rids }, status: { notIn: [...FINAL_STATUSES] } } });
    await waitFor(async () => (await open()) === 0, `the ${BATCH} packets to end`, 150_000);
    const ours = (await database.prisma.platformJob.findMany({ where: { kind: { in: Object.values(STAGE_JOBS) } } })).filter((job) =>
      rids.includes((job.payload as { rid: string }).rid),
    );

    expect(await database.prisma.registration.count({ where: { rid: { in: rids }, status: 'PROCESSED' } })).toBe(BATCH);
    expect(await database.prisma.identityRegistration.count({ where: { registrationId: { in: rids } } })).toBe(BATCH);
    expect(await database.prisma.identity.count({ where: { registrationId: { in: rids } } })).toBe(BATCH);
    expect(await database.prisma.notification.count()).toBe(notificationsBefore + BATCH);
    const uins = await database.prisma.registrationTransaction.groupBy({
      by: ['rid'],
      where: { rid: { in: rids }, transactionTypeCode: 'UIN_GENERATOR', statusCode: 'SUCCESS' },
      _count: { _all: true },
    });
    expect(uins).toHaveLength(BATCH);
    expect(uins.every((row) => row._count._all === 1)).toBe(true);
    const transactions = await database.prisma.registrationTransaction.count({ where: { rid: { in: rids } } });
    expect(transactions).toBe(BATCH * PROCESSED_TRANSACTIONS.length);
    // Every stage job ran once: no worker ran another's job again.
    expect(ours).toHaveLength(BATCH * NEW_STAGES.length);
    expect(ours.every((job) => job.state === 'DONE' && job.attempts === 1)).toBe(true);
    for (const worker of started) await worker.kill();
  });
});
