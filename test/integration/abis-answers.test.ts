// An operator's wait for the ABIS's answers is woken by the database's LISTEN/NOTIFY, not by polling:
// on PostgreSQL a reply applied by another instance (its own connections, no in-process event) wakes
// this instance's wait at once; on embedded PGlite the same NOTIFY is heard in-process. A wait reads the
// requests once after sending them, then once per answer heard.
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openDatabase, type Database } from '../../lib/db/client.js';
import type { JobPayloads } from '../../lib/jobs/types.js';
import { createLogger } from '../../lib/log.js';
import { systemClock } from '../../lib/time.js';
import { AbisOperatorService, AnswerSignals } from '../../subgraphs/abis/requests/operator.js';
import { AbisRequestService, type AbisRequestSettings } from '../../subgraphs/abis/requests/service.js';
import { AbisRequestStorage } from '../../subgraphs/abis/requests/storage.js';
import { createTestDatabase } from '../support/postgres.js';
import { jobContext, recordingJobs, recordingPipeline, recordingQueue, replyMessage } from '../unit/abis-fakes.js';

const SETTINGS: AbisRequestSettings = {
  count: 2,
  requestQueue: 'platform-to-abis',
  responseQueue: 'abis-to-platform',
  messageFormat: 'text',
  messageTtlSeconds: 2700,
  responseTimeoutSeconds: 5400,
  pingTimeoutSeconds: 30,
  deleteRejected: true,
};
const logger = createLogger('silent');

/** One platform instance's ABIS requests over `database`, with no event bus: only NOTIFY reaches its waits. */
function instance(database: Database) {
  const store = new AbisRequestStorage(database.prisma);
  const reads = { byIds: 0 };
  const byIds = store.byIds.bind(store);
  store.byIds = (ids) => {
    reads.byIds++;
    return byIds(ids);
  };
  const { queue, published } = recordingQueue();
  const { jobs } = recordingJobs((_kind, payload) => service.send((payload as JobPayloads['abis.send']).requestId, jobContext()));
  const service = new AbisRequestService(
    store,
    { create: () => Promise.reject(new Error('no data share here')) },
    recordingPipeline().port,
    () => Promise.resolve(new Map()),
    jobs,
    queue,
    systemClock,
    SETTINGS,
    logger,
  );
  const answers = new AnswerSignals({ database, logger });
  const operator = new AbisOperatorService(
    store,
    service,
    () => Promise.resolve(null),
    queue,
    systemClock,
    { pingTimeoutSeconds: 30, pingIntervalSeconds: 60 },
    answers,
  );
  return { service, operator, answers, queue, published, reads };
}

/** Asks both ABIS how many references they hold; `other` consumes the replies, 150 ms apart. */
async function askAnsweredBy(asking: ReturnType<typeof instance>, other: ReturnType<typeof instance>) {
  let delay = 150;
  let lastAnswered = 0;
  asking.queue.afterPublish = (message) => {
    const reply = replyMessage({ requestId: message.headers['correlation-id'], returnValue: '1', count: '42' });
    setTimeout(() => void other.service.onReply(reply).then(() => (lastAnswered = Date.now())), delay);
    delay += 150;
  };
  const rows = await asking.operator.ask('REFERENCE_COUNT', null, 'operator-1', 30);
  return { rows, afterLastAnswer: Date.now() - lastAnswered };
}

describe('on PostgreSQL: a reply consumed by another instance wakes the wait by NOTIFY', () => {
  let server: Awaited<ReturnType<typeof createTestDatabase>>;
  let first: Database;
  let second: Database;

  beforeAll(async () => {
    server = await createTestDatabase(inject('postgresTemplate'));
    first = await openDatabase({ url: server.url, migrate: false, poolSize: 2 });
    second = await openDatabase({ url: server.url, migrate: false, poolSize: 2 });
  });
  afterAll(async () => {
    await first?.close();
    await second?.close();
    await server?.drop();
  });

  it('returns once both answers are in, having read the requests once per answer heard', async () => {
    const asking = instance(first);
    const answering = instance(second);
    try {
      const { rows, afterLastAnswer } = await askAnsweredBy(asking, answering);
      expect(rows).toMatchObject([
        { abisName: 'abis1', status: 'PROCESSED', result: '42' },
        { abisName: 'abis2', status: 'PROCESSED', result: '42' },
      ]);
      // one read to start and one per answer (polling would make many; the re-read of every second alone, a late return)
      expect(asking.reads.byIds).toBeLessThanOrEqual(3);
      expect(afterLastAnswer).toBeLessThan(300);
    } finally {
      await asking.answers.close();
      await answering.answers.close();
    }
  });
});

describe('on embedded PGlite: the NOTIFY is heard in-process', () => {
  let database: Database;

  beforeAll(async () => {
    database = await openDatabase({ dataDir: 'memory://', migrate: false, loadDataDir: new Blob([await readFile(inject('pgliteTemplate'))]) });
  });
  afterAll(async () => {
    await database?.close();
  });

  it('wakes a wait at a reply applied by a service that publishes no event', async () => {
    const asking = instance(database);
    const answering = instance(database);
    try {
      const { rows, afterLastAnswer } = await askAnsweredBy(asking, answering);
      expect(rows.map((row) => row.status)).toEqual(['PROCESSED', 'PROCESSED']);
      expect(asking.reads.byIds).toBeLessThanOrEqual(3);
      expect(afterLastAnswer).toBeLessThan(300);
    } finally {
      await asking.answers.close();
    }
  });
});
