// npm run bench:soak: the platform in its own process (as `npm start` runs it, on PostgreSQL) under
// BENCH_SOAK_MINUTES (10) of steady load in 30 s windows, turn by turn validateToken over REST, the
// same over GraphQL, and a password login; its resident memory after each window. Memory differs by
// kind of load, so it is compared cycle by cycle (one window of each kind): after two cycles of
// warm-up (the JIT, caches, pools, the heap's own size), the last cycle's mean must be less than 5 %
// above the first measured cycle's; the run exits 1 otherwise, or on any failed answer.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createTestDatabase } from '../support/postgres.js';
import { freePort } from '../support/wait.js';
import type { LoadCase } from './load.js';
import { load } from './load-process.js';
import { rssOf, start, waitFor } from './packets.js';
import { adminCookie, adminLogin, platformEnv } from './platform.js';

const minutes = Number(process.env.BENCH_SOAK_MINUTES ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 16);
const WINDOW_SECONDS = 30;
const WARM_UP_CYCLES = 2;

const dataDir = mkdtempSync(path.join(tmpdir(), 'platform-soak-'));
const database = await createTestDatabase();
const port = await freePort();
const url = `http://127.0.0.1:${port}`;
const platform = start('gateway/main.ts', [], platformEnv(port, dataDir, database.url, { PLATFORM_UIN_POOL_SIZE: '1000', PLATFORM_UIN_POOL_THRESHOLD: '100' }));
let failed = false;
try {
  await waitFor(`${url}/health/live`, platform);
  const cookie = await adminCookie(url);
  const turns: { name: string; spec: Omit<LoadCase, 'connections' | 'seconds'> }[] = [
    { name: 'validateToken over REST', spec: { url, path: '/v1/authmanager/authorize/admin/validateToken', headers: { cookie } } },
    {
      name: 'validateToken over GraphQL',
      spec: { url, method: 'POST', path: '/graphql', body: { query: '{ validateToken { userId roles } }' }, headers: { cookie } },
    },
    { name: 'password login', spec: { url, method: 'POST', path: '/v1/authmanager/authenticate/internal/useridPwd', body: adminLogin() } },
  ];
  console.log(
    `${minutes} minutes of ${WINDOW_SECONDS} s windows, ${connections} connections, Node ${process.version}; platform RSS at rest ${rssOf(platform.pid!).toFixed(0)} MB`,
  );
  const started = Date.now();
  /** each cycle's resident memory after its windows, in MB */
  const cycles: number[][] = [];
  for (let turn = 0; Date.now() - started < minutes * 60_000 || turn % turns.length !== 0; turn++) {
    const { name, spec } = turns[turn % turns.length]!;
    const result = await load({ ...spec, connections, seconds: WINDOW_SECONDS });
    if (result.non2xx || result.errors || result.failedAnswers) {
      console.log(`${name}: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.failedAnswers} failed answers`);
      failed = true;
    }
    const rss = rssOf(platform.pid!);
    if (turn % turns.length === 0) cycles.push([]);
    cycles.at(-1)!.push(rss);
    console.log(
      `${`at ${Math.round((Date.now() - started) / 1000)} s, ${name}`.padEnd(44)} ${result.requestsPerSecond.toFixed(0).padStart(6)} req/s  p99 ${result.p99ms} ms  RSS ${rss.toFixed(0)} MB`,
    );
  }
  const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
  const measured = cycles.slice(WARM_UP_CYCLES).map(mean);
  const growth = measured.length >= 2 ? (measured.at(-1)! - measured[0]!) / measured[0]! : Number.NaN;
  console.log(
    `RSS by cycle after the warm-up: ${measured.map((value) => value.toFixed(0)).join(', ')} MB; the last ${(growth * 100).toFixed(1)} % above the first (goal under 5 %)`,
  );
  if (!(growth < 0.05)) failed = true;
} finally {
  platform.kill('SIGTERM');
  await new Promise((resolve) => (platform.exitCode !== null ? resolve(null) : platform.once('exit', resolve)));
  await database.drop();
  rmSync(dataDir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
