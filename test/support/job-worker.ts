// A job worker process for the runner's tests: runs `test.work` jobs of DATABASE_URL, journaling to JOB_JOURNAL, until killed.
import { openDatabase } from '../../lib/db/client.js';
import { JobQueue } from '../../lib/jobs/queue.js';
import { JobRunner } from '../../lib/jobs/runner.js';
import { createLogger } from '../../lib/log.js';
import { systemClock } from '../../lib/time.js';
import { testJobs } from './test-jobs.js';

const logger = createLogger('silent');
const database = await openDatabase({ url: process.env.DATABASE_URL!, migrate: false });
const queue = new JobQueue(database.prisma, systemClock, logger);
queue.define(testJobs(process.env.JOB_JOURNAL!));
await new JobRunner(queue, database, systemClock, logger, { concurrency: 4, pollMs: 50, retentionMs: 3_600_000 }).start();
console.log('worker ready');
