// npm run worker: a process that runs jobs only (no HTTP), beside `npm start` instances on the same PostgreSQL.
import { createDeps } from '../gateway/deps.js';
import { startProcess } from '../gateway/entry.js';
import { StartRefused } from '../gateway/preflight.js';
import { stopOnSignals } from '../gateway/signals.js';
import { log } from '../lib/log.js';

await startProcess('worker', async (config) => {
  // Embedded PGlite belongs to one process: `npm start` runs the jobs itself there.
  if (!config.databaseUrl)
    throw new StartRefused('a worker shares the PostgreSQL database of the platform: set DATABASE_URL (on the embedded database, npm start runs the jobs)');
  const { database, jobQueue, jobRunner, runCloseTasks, deps } = await createDeps({ config, role: 'worker' });
  await jobRunner.start();
  log.info(
    {
      worker: jobQueue.executor.worker,
      kinds: jobQueue.kinds,
      concurrency: config.jobs.concurrency,
      database: database.description,
      queue: deps.queue.state,
      objectStore: deps.objects.kind,
    },
    'job worker running',
  );
  stopOnSignals(log, async () => {
    await runCloseTasks();
    await database.close();
  });
});
