// npm run worker: a process that runs jobs only (no HTTP), beside `npm start` instances on the same PostgreSQL.
import { createDeps } from '../gateway/deps.js';
import { stopOnSignals } from '../gateway/signals.js';
import { loadConfig } from '../lib/config.js';
import { log } from '../lib/log.js';

const config = loadConfig();
if (!config.databaseUrl) {
  // Embedded PGlite belongs to one process: `npm start` runs the jobs itself there.
  console.error('a worker shares the PostgreSQL database of the platform: set DATABASE_URL (on the embedded database, npm start runs the jobs)');
  process.exit(2);
}
const { database, jobQueue, jobRunner, runCloseTasks } = await createDeps({ config });
await jobRunner.start();
log.info(
  { worker: jobQueue.executor.worker, kinds: jobQueue.kinds, concurrency: config.jobs.concurrency, database: database.description },
  'job worker running',
);
stopOnSignals(log, async () => {
  await runCloseTasks();
  await database.close();
});
