// The registration pipeline end to end (npm run bench, case "packets"): the platform in its own
// process (as `npm start` runs it, with the sample country), job workers in their own
// (`npm run worker`), and the registration-centre simulator in a third (`npm run simulate`), which
// syncs and uploads packets of sample residents and follows them to PROCESSED. Prints packets/s,
// the platform's resident memory before and after, and the time each stage's jobs took.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { signIn } from '../../tools/registration/client.js';
import { loadOrCreateKeys } from '../../tools/mock-abis/keys.js';
import { createAbisClient, uploadAbisCertificate } from '../../tools/mock-abis/setup.js';
import { createTestDatabase } from '../support/postgres.js';
import { freePort } from '../support/wait.js';
import { ADMIN_PASSWORD, MASTER_KEY } from './platform.js';
import { sizes } from './sizes.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** BENCH_PROFILE: a folder for V8 CPU profiles of the platform and the workers (written when they stop) */
const profileDir = process.env.BENCH_PROFILE;

export function start(file: string, args: string[], env: Record<string, string>, output: 'ignore' | 'pipe' = 'ignore', profiled = false): ChildProcess {
  const profile = profiled && profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [];
  return spawn(process.execPath, [...profile, '--import', 'tsx', file, ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', output, 'inherit'],
  });
}

export async function waitFor(url: string, child: ChildProcess): Promise<void> {
  const until = Date.now() + 120_000;
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`the platform exited (${child.exitCode})`);
    if (
      await fetch(url).then(
        (r) => r.ok,
        () => false,
      )
    )
      return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${url} did not answer`);
}

/** Resident memory of a process, in MB (Linux /proc). */
export const rssOf = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

/** The output of a child until `text` appears in it (or it exits). */
function outputOf(child: ChildProcess, text: string, what: string): Promise<void> {
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
      if (output.includes(text)) resolve();
    });
    child.once('exit', (code) => reject(new Error(`${what} exited (${code})`)));
  });
}

/**
 * BENCH_ABIS=true: the mock ABIS in a process of its own (`npm run mock-abis`) on queues of the
 * run's own, with the client and certificate an admin would give it.
 */
async function startMockAbis(base: string, stompUrl: string, queues: { request: string; response: string }, keysDir: string): Promise<ChildProcess> {
  const cookie = await signIn(base, { userName: 'admin', password: ADMIN_PASSWORD });
  const { clientId, secretKey } = await createAbisClient(base, cookie);
  await uploadAbisCertificate(base, cookie, (await loadOrCreateKeys(keysDir)).certificatePem);
  const mock = start(
    'scripts/mock-abis.ts',
    ['--stomp', stompUrl, '--request-queue', queues.request, '--response-queue', queues.response, '--base', base, '--keys', keysDir],
    { ABIS_CLIENT_ID: clientId, ABIS_CLIENT_SECRET: secretKey, LOG_LEVEL: 'warn' },
    'pipe',
  );
  await outputOf(mock, 'mock ABIS:', 'the mock ABIS');
  return mock;
}

export async function benchPackets(options: { count: number; workers: number; concurrency: number; platformJobs: boolean; abis: boolean }): Promise<void> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'platform-bench-packets-'));
  const database = await createTestDatabase();
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const stompUrl = process.env.STOMP_URL || 'stomp://127.0.0.1:61613';
  const run = path.basename(dataDir).slice(-6);
  const queues = { request: `platform-to-abis-bench-${run}`, response: `abis-to-platform-bench-${run}` };
  const env = {
    PLATFORM_DATA_DIR: dataDir,
    PLATFORM_MASTER_KEY: MASTER_KEY,
    DATABASE_URL: database.url,
    LOG_LEVEL: 'warn',
    PLATFORM_UIN_POOL_SIZE: String(options.count + 1000),
    PLATFORM_UIN_POOL_THRESHOLD: '100',
    // The simulator's residents are new people: de-duplication still runs, with the ABIS (insert, then
    // identify, over ActiveMQ) or within the platform (keyed hashes).
    ...(options.abis
      ? { REGPROC_DEDUPE: 'abis', STOMP_URL: stompUrl, PLATFORM_PUBLIC_URL: base, ABIS_REQUEST_QUEUE: queues.request, ABIS_RESPONSE_QUEUE: queues.response }
      : { REGPROC_DEDUPE: 'local', STOMP_URL: '' }),
  };
  const children: ChildProcess[] = [];
  try {
    const platform = start(
      'gateway/main.ts',
      [],
      {
        ...env,
        PORT: String(port),
        PLATFORM_ADMIN_PASSWORD: ADMIN_PASSWORD,
        PLATFORM_SAMPLE_DATA: 'true',
        // BENCH_PLATFORM_JOBS=false: the platform only receives; the workers alone run the stages.
        JOBS_RUN: String(options.platformJobs),
        PLATFORM_THROTTLE_ACCOUNT: '0',
        PLATFORM_THROTTLE_ADDRESS: '0',
      },
      'ignore',
      true,
    );
    children.push(platform);
    await waitFor(`${base}/health/live`, platform);
    if (options.abis) children.push(await startMockAbis(base, stompUrl, queues, path.join(dataDir, 'mock-abis')));
    for (let i = 0; i < options.workers; i++) children.push(start('scripts/worker.ts', [], env, 'ignore', true));
    // The UIN pool's first fill is a start-up cost, not the steady state: wait for it.
    const db = new pg.Client({ connectionString: database.url });
    await db.connect();
    for (let i = 0; i < 240; i++) {
      const { rows } = await db.query<{ n: string }>(
        `SELECT count(*) AS n FROM platform_job WHERE kind = 'idrepo.uin-pool.refill' AND state IN ('QUEUED', 'RUNNING')`,
      );
      if (rows[0]!.n === '0') break;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    const rssBefore = rssOf(platform.pid!);
    const simulator = start(
      'scripts/simulate.ts',
      ['--count', String(options.count), '--concurrency', String(options.concurrency), '--base', base, '--json', '--timeout', '900'],
      {
        PLATFORM_ADMIN_PASSWORD: ADMIN_PASSWORD,
      },
      'pipe',
    );
    let output = '';
    simulator.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    const code = await new Promise<number | null>((resolve) => simulator.once('exit', resolve));
    const summary = JSON.parse(output.slice(output.indexOf('{'))) as { packetsPerSecond: number; statuses: Record<string, number>; seconds: number };
    const rssAfter = rssOf(platform.pid!);
    // Where the time goes: each stage's jobs, from their run to their finish, summed.
    const { rows } = await db.query<{ kind: string; jobs: string; avg_ms: string }>(
      `SELECT kind, count(*) AS jobs, round(avg(extract(epoch FROM ("finishedAt" - "runAt")) * 1000)) AS avg_ms
         FROM platform_job WHERE (kind LIKE 'regproc.%' OR kind = 'abis.send') AND state = 'DONE' GROUP BY kind ORDER BY kind`,
    );
    await db.end();
    console.log(
      `${`packets end to end (${options.count}, ${options.workers} worker${options.workers === 1 ? '' : 's'}${options.platformJobs ? ' + platform' : ''}${options.abis ? ', mock ABIS' : ''})`.padEnd(44)} ${summary.packetsPerSecond
        .toFixed(1)
        .padStart(
          7,
        )} packets/s  ${JSON.stringify(summary.statuses)}  platform RSS ${rssBefore.toFixed(0)} → ${rssAfter.toFixed(0)} MB  (simulator exit ${code})`,
    );
    for (const row of rows) console.log(`  ${row.kind.padEnd(28)} ${row.jobs.padStart(6)} jobs, queued to done ${row.avg_ms} ms on average`);
    // A run whose packets did not all end PROCESSED measured a failure: the benchmark fails with it.
    if (code !== 0 || summary.statuses.PROCESSED !== options.count) throw new Error(`packets: simulator exit ${code}, ${JSON.stringify(summary.statuses)}`);
  } finally {
    for (const child of children) child.kill('SIGTERM');
    await Promise.all(children.map((child) => new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.once('exit', resolve)))));
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  await benchPackets({
    count: sizes.packets,
    workers: Number(process.env.BENCH_WORKERS ?? 1),
    concurrency: Number(process.env.BENCH_CONNECTIONS ?? 16),
    platformJobs: process.env.BENCH_PLATFORM_JOBS !== 'false',
    abis: process.env.BENCH_ABIS === 'true',
  });
}
