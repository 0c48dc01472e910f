// The job runner on PostgreSQL: a worker killed with SIGKILL mid-job leaves the
// job to the next worker after its lease, which completes it once; a job
// enqueued in a transaction that rolls back never runs; retries, dead jobs,
// singletons, recurring jobs and several runners sharing one table.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { openDatabase, type Database } from '../../lib/db/client.js';
import { JobQueue } from '../../lib/jobs/queue.js';
import { JobRunner } from '../../lib/jobs/runner.js';
import type { JobDefinitions } from '../../lib/jobs/types.js';
import { createLogger } from '../../lib/log.js';
import { systemClock } from '../../lib/time.js';
import { TEST_MASTER_KEY } from '../support/platform.js';
import { createTestDatabase } from '../support/postgres.js';
import { runNpmScript } from '../support/process.js';
import { journalLines, testJobs, type TestJobPayload } from '../support/test-jobs.js';
import { waitFor } from '../support/wait.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const logger = createLogger('silent');

describe('jobs on PostgreSQL', () => {
  let server: Awaited<ReturnType<typeof createTestDatabase>>;
  let database: Database;
  const runners: JobRunner[] = [];
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    server = await createTestDatabase(inject('postgresTemplate'));
    database = await openDatabase({ url: server.url, migrate: false });
  });
  afterEach(async () => {
    for (const runner of runners.splice(0)) await runner.stop(1_000);
    for (const child of children.splice(0)) child.kill('SIGKILL');
    await database.prisma.platformJob.deleteMany();
  });
  afterAll(async () => {
    await database?.close();
    await server?.drop();
  });

  const journalFile = () => path.join(mkdtempSync(path.join(tmpdir(), 'jobs-test-')), 'journal');

  /** A queue and a started runner in this process over `definitions`. */
  async function startRunner(definitions: JobDefinitions, pollMs = 50) {
    const queue = new JobQueue(database.prisma, systemClock, logger);
    queue.define(definitions);
    const runner = new JobRunner(queue, database, systemClock, logger, { concurrency: 4, pollMs, retentionMs: 3_600_000 });
    runners.push(runner);
    await runner.start();
    return { queue, runner };
  }
  const enqueue = (queue: JobQueue, payload: TestJobPayload, options = {}) => queue.enqueue('test.work' as never, payload as never, options);
  const labelOf = (row: { payload: unknown }) => (row.payload as TestJobPayload).label;
  const jobRows = () => database.prisma.platformJob.findMany({ orderBy: { createdAt: 'asc' } });

  it('runs a job again after the lease of a worker killed with SIGKILL mid-job, and completes it once', async () => {
    const journal = journalFile();
    // Enqueued while no runner of this process is up: only the child worker can claim it.
    const producer = new JobQueue(database.prisma, systemClock, logger);
    producer.define(testJobs(journal));
    await enqueue(producer, { label: 'a', firstAttemptMs: 60_000 });

    const worker = spawn(process.execPath, ['--import', 'tsx', 'test/support/job-worker.ts'], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: server.url, JOB_JOURNAL: journal },
      stdio: 'ignore',
    });
    children.push(worker);
    await waitFor(() => journalLines(journal).includes('start a 1'), 'the worker to start the job', 30_000);
    const exited = new Promise((resolve) => worker.once('exit', resolve));
    worker.kill('SIGKILL');
    await exited;
    const [held] = await jobRows();
    expect(held).toMatchObject({ state: 'RUNNING', attempts: 1 });

    // Another worker: it may take the job only once the dead worker's lease (1 s) has ended.
    await startRunner(testJobs(journal));
    await waitFor(async () => (await jobRows())[0]?.state === 'DONE', 'the job done by the second worker', 20_000);
    const [done] = await jobRows();
    expect(done).toMatchObject({ state: 'DONE', attempts: 2, lockedBy: null, lastError: null });
    expect(done!.finishedAt!.getTime() - held!.leaseUntil!.getTime()).toBeGreaterThanOrEqual(0);
    expect(journalLines(journal)).toEqual(['start a 1', 'start a 2', 'done a 2']);
  });

  it('never runs a job enqueued in a transaction that rolls back', async () => {
    const journal = journalFile();
    const { queue, runner } = await startRunner(testJobs(journal));
    await expect(
      database.prisma.$transaction(async (tx) => {
        await enqueue(queue, { label: 'rolled-back' }, { tx });
        throw new Error('the change fails after the enqueue');
      }),
    ).rejects.toThrow('the change fails');
    await database.prisma.$transaction(async (tx) => enqueue(queue, { label: 'committed' }, { tx }));
    await waitFor(() => journalLines(journal).includes('done committed 1'), 'the committed job to run');
    await runner.drain();
    expect(journalLines(journal)).toEqual(['start committed 1', 'done committed 1']);
    expect((await jobRows()).map((row) => labelOf(row))).toEqual(['committed']);
  });

  it('retries a failing job with back-off and marks it DEAD with the reason after its attempts', async () => {
    const journal = journalFile();
    const dead: string[] = [];
    const { queue, runner } = await startRunner(testJobs(journal, { maxAttempts: 3, onDead: (label) => dead.push(label) }));
    await enqueue(queue, { label: 'flaky', failUntil: 2 });
    await enqueue(queue, { label: 'doomed', failUntil: 99 });
    await waitFor(async () => (await jobRows()).every((row) => row.state === 'DONE' || row.state === 'DEAD'), 'both jobs to end');
    await runner.drain();
    const rows = await jobRows();
    expect(rows.find((row) => labelOf(row) === 'flaky')).toMatchObject({ state: 'DONE', attempts: 3, lastError: null });
    expect(rows.find((row) => labelOf(row) === 'doomed')).toMatchObject({
      state: 'DEAD',
      attempts: 3,
      lastError: 'attempt 3 of doomed fails',
    });
    expect(dead).toEqual(['doomed']);
    expect(journalLines(journal).filter((line) => line.startsWith('start doomed'))).toHaveLength(3);
  });

  it('keeps one queued job per singleton key', async () => {
    const journal = journalFile();
    const queue = new JobQueue(database.prisma, systemClock, logger);
    queue.define(testJobs(journal));
    await Promise.all(Array.from({ length: 5 }, () => enqueue(queue, { label: 'once' }, { singletonKey: 'only-one' })));
    expect(await jobRows()).toHaveLength(1);
    const { runner } = await startRunner(testJobs(journal));
    await waitFor(() => journalLines(journal).includes('done once 1'), 'the singleton to run');
    await runner.drain();
    // Once it has run, the key is free again.
    await enqueue(queue, { label: 'twice' }, { singletonKey: 'only-one' });
    expect(await jobRows()).toHaveLength(2);
  });

  it('runs each of 40 jobs exactly once with two runners sharing the table', async () => {
    const journal = journalFile();
    const first = await startRunner(testJobs(journal), 20);
    await startRunner(testJobs(journal), 20);
    await Promise.all(Array.from({ length: 40 }, (_, index) => enqueue(first.queue, { label: `j${index}` })));
    await waitFor(() => journalLines(journal).filter((line) => line.startsWith('done')).length === 40, 'every job done', 30_000);
    await first.runner.drain();
    const lines = journalLines(journal);
    expect(lines.filter((line) => line.startsWith('start'))).toHaveLength(40);
    expect(new Set(lines).size).toBe(80);
    expect((await jobRows()).every((row) => row.state === 'DONE' && row.attempts === 1)).toBe(true);
  });

  it('runs a recurring job again and again on one row, whichever runner starts first', async () => {
    let runs = 0;
    const recurring = {
      'test.tick': {
        everyMs: 30,
        run: () => {
          runs++;
          return Promise.resolve();
        },
      },
    } as JobDefinitions;
    await startRunner(recurring, 10);
    await startRunner(recurring, 10);
    await waitFor(() => runs >= 5, 'five runs of the recurring job');
    const rows = await jobRows();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ kind: 'test.tick', singletonKey: 'recurring:test.tick' });
  });

  it('npm run worker runs the platform jobs beside an instance that runs none (JOBS_RUN=false)', async () => {
    const env = {
      DATABASE_URL: server.url,
      LOG_LEVEL: 'info',
      PLATFORM_MASTER_KEY: TEST_MASTER_KEY,
      PLATFORM_DATA_DIR: mkdtempSync(path.join(tmpdir(), 'jobs-worker-')),
      PLATFORM_UIN_POOL_SIZE: '50',
      PLATFORM_UIN_POOL_THRESHOLD: '10',
    };
    const { createPlatform } = await import('../../gateway/platform.js');
    const { loadConfig } = await import('../../lib/config.js');
    const platform = await createPlatform({
      config: loadConfig({ ...process.env, ...env, JOBS_RUN: 'false', LOG_LEVEL: 'silent' }),
      database,
      logger,
    });
    try {
      // The instance asked for a refill at its start and runs no job itself.
      await waitFor(async () => (await jobRows()).some((row) => row.kind === 'idrepo.uin-pool.refill'), 'the refill job queued');
      expect(await platform.deps.services.uinPool.unused()).toBe(0);
      const worker = runNpmScript(['run', 'worker'], env);
      try {
        await worker.waitForOutput('job worker running', 'the worker to start');
        await waitFor(async () => (await platform.deps.services.uinPool.unused()) === 50, 'the pool filled by the worker', 60_000);
        expect(worker.logLines().find((line) => line.msg === 'job worker running')).toMatchObject({
          kinds: expect.arrayContaining(['notify.deliver', 'idrepo.uin-pool.refill']),
        });
        expect(await worker.stop('SIGTERM')).toBe(0);
      } finally {
        worker.child.kill('SIGKILL');
      }
    } finally {
      await platform.close();
    }
  });

  it('npm run worker refuses the embedded database', async () => {
    const worker = runNpmScript(['run', 'worker'], { DATABASE_URL: '', PLATFORM_DATA_DIR: mkdtempSync(path.join(tmpdir(), 'jobs-worker-')) });
    expect(await worker.exited).toBe(2);
    expect(worker.output()).toMatch(/set DATABASE_URL/);
  });
});
