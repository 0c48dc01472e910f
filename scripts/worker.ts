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
if (process.env.REGPROC_DEDUPE === 'abis' && !config.publicUrl) {
  // The data shares a worker writes carry their address: without it they would name this machine's default port, which the ABIS cannot fetch.
  console.error('a worker sends ABIS inserts with data share addresses: set PLATFORM_PUBLIC_URL to the address the ABIS reaches the platform at');
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
