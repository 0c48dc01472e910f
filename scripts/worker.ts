// npm run worker: a process that runs jobs only (no API; probes and metrics on WORKER_PORT when set), beside `npm start` instances on the same PostgreSQL.
import { createDeps } from '../gateway/deps.js';
import { startProcess } from '../gateway/entry.js';
import { StartRefused } from '../gateway/preflight.js';
import { stopOnSignals } from '../gateway/signals.js';
import { instanceId, log } from '../lib/log.js';
import { WORKER_SETTINGS } from '../lib/config.js';
import { readSettings } from '../lib/settings.js';
import { PLATFORM_VERSION } from '../lib/version.js';
import { createHealth } from '../gateway/health.js';
import { platformMetrics } from '../gateway/metrics.js';
import { startProbeServer } from '../gateway/worker-http.js';

await startProcess('worker', async (config) => {
  // Embedded PGlite belongs to one process: `npm start` runs the jobs itself there.
  if (!config.databaseUrl)
    throw new StartRefused('a worker shares the PostgreSQL database of the platform: set DATABASE_URL (on the embedded database, npm start runs the jobs)');
  const listenOn = readSettings(WORKER_SETTINGS, process.env);
  const { database, jobQueue, jobRunner, runCloseTasks, deps } = await createDeps({ config, role: 'worker' });
  // Counting stage runs from the first job on; served only when WORKER_PORT is set.
  const metrics = platformMetrics(config, deps, database, jobQueue);
  await jobRunner.start();
  const instance = config.instanceId ?? instanceId(config.env);
  const health = createHealth({ config, database, deps, jobQueue, jobRunner, version: PLATFORM_VERSION, instance });
  const probes = listenOn.port === undefined ? undefined : await startProbeServer(health, metrics.http, listenOn.port, listenOn.host);
  log.info(
    {
      worker: jobQueue.executor.worker,
      kinds: jobQueue.kinds,
      concurrency: config.jobs.concurrency,
      database: database.description,
      queue: deps.queue.state,
      objectStore: deps.objects.kind,
      probes: probes ? `http://${listenOn.host}:${probes.port} (/health/live, /health/ready, /health, /metrics)` : 'none (WORKER_PORT not set)',
    },
    'job worker running',
  );
  stopOnSignals(log, async () => {
    await probes?.close();
    metrics.close();
    await runCloseTasks();
    await database.close();
  });
});
