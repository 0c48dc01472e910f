// A fresh start at rest (npm run bench, case "startup"): a new platform on an empty PostgreSQL with
// the shipped UIN pool (200,000 numbers, filled in the background in paced batches). validateToken
// over REST is measured in windows during the first minute after /health/live answers, then again
// once the pool is full (or after BENCH_STARTUP_WAIT_SECONDS, 600): the first minute's latency
// should be the later one's (the very first window, the JIT's warm-up, is printed apart), and the
// platform's CPU share while it fills is printed.
import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createTestDatabase } from '../support/postgres.js';
import { freePort } from '../support/wait.js';
import type { LoadCase, LoadResult } from './load.js';
import { start, waitFor } from './packets.js';
import { adminCookie, platformEnv } from './platform.js';
import { sizes } from './sizes.js';

/** CPU seconds the process has used so far (Linux /proc: user + system ticks). */
function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

export async function benchStartup(options: { load: (spec: LoadCase) => Promise<LoadResult>; connections: number; seconds: number }): Promise<void> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'platform-bench-startup-'));
  const database = await createTestDatabase();
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const platform = start('gateway/main.ts', [], platformEnv(port, dataDir, database.url));
  try {
    await waitFor(`${url}/health/live`, platform);
    const startedAt = Date.now();
    const cookie = await adminCookie(url);
    const spec = { url, path: '/v1/authmanager/authorize/admin/validateToken', headers: { cookie }, connections: options.connections };
    const pool = async () =>
      ((await (await fetch(`${url}/health`)).json()) as { components: { uinPool: { details: { unused: number; size: number } } } }).components.uinPool.details;
    const line = (label: string, result: LoadResult, extra = '') =>
      console.log(`${label.padEnd(44)} ${result.requestsPerSecond.toFixed(0).padStart(7)} req/s    p50 ${result.p50ms} ms  p99 ${result.p99ms} ms${extra}`);

    // The first window warms the JIT up (compiling the request path, whatever runs beside it): printed, not compared.
    line('startup: validateToken, JIT warm-up (not compared)', await options.load({ ...spec, seconds: options.seconds }));
    const early: LoadResult[] = [];
    while (Date.now() - startedAt < sizes.startupSeconds * 1000) {
      const result = await options.load({ ...spec, seconds: options.seconds });
      early.push(result);
      line(`startup: validateToken at ${Math.round((Date.now() - startedAt) / 1000)} s`, result, `   pool ${(await pool()).unused.toLocaleString('en')}`);
    }
    // The fill's own CPU share: the platform idle but for the pool.
    const [cpuBefore, idleFrom] = [cpuSeconds(platform.pid!), Date.now()];
    await new Promise((resolve) => setTimeout(resolve, sizes.startupIdleSeconds * 1000));
    const fillShare = (cpuSeconds(platform.pid!) - cpuBefore) / ((Date.now() - idleFrom) / 1000);
    console.log(`${'startup: platform CPU while idle (filling)'.padEnd(44)} ${(fillShare * 100).toFixed(0).padStart(7)} % of one core`);

    const waitUntil = Date.now() + sizes.startupWaitSeconds * 1000;
    let level = await pool();
    while (level.unused < level.size && Date.now() < waitUntil) {
      await new Promise((resolve) => setTimeout(resolve, 5_000));
      level = await pool();
    }
    const filledAfter = Math.round((Date.now() - startedAt) / 1000);
    const later = await options.load({ ...spec, seconds: options.seconds });
    const worst = (results: LoadResult[], pick: (r: LoadResult) => number) => Math.max(...results.map(pick));
    line(
      `startup: validateToken at rest (${level.unused === level.size ? `pool full after ${filledAfter} s` : `pool ${level.unused} of ${level.size}`})`,
      later,
      `   first minute: worst p99 ×${(worst(early, (r) => r.p99ms) / later.p99ms).toFixed(2)}, slowest req/s ×${(Math.min(...early.map((r) => r.requestsPerSecond)) / later.requestsPerSecond).toFixed(2)}`,
    );
  } finally {
    platform.kill('SIGTERM');
    await new Promise((resolve) => (platform.exitCode !== null ? resolve(null) : platform.once('exit', resolve)));
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
