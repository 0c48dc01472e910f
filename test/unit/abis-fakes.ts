// In-memory stand-ins for the ABIS requests' storage and neighbours (the jobs, the broker, the pipeline):
// the requests' rules run over them with no database, broker or HTTP.
import type { JobContext, JobKind, JobPayloads, Jobs, JobTx } from '../../lib/jobs/types.js';
import type { MessageQueue, QueueMessage } from '../../lib/queue/index.js';
import type { AbisRequestRow, AbisRequestStorage, NewAbisRequest, OutstandingCount, ReplyRecord } from '../../subgraphs/abis/requests/storage.js';
import type { PipelinePort } from '../../subgraphs/abis/requests/service.js';

/** The transaction the fakes hand out: nothing reads it. */
export const TX = {} as JobTx;

/** The abis_request table as a map, with the queries the services run. */
export function abisTable() {
  const rows = new Map<string, AbisRequestRow>();
  /** the ids announced as answered (the NOTIFY sent with the transaction), in order */
  const announced: string[] = [];
  /** how many times the requests were read by id (an operator's wait reads them) */
  const reads = { byIds: 0 };
  const update = (id: string, from: string | string[], change: Partial<AbisRequestRow>) => {
    const row = rows.get(id);
    if (!row || ![from].flat().includes(row.status)) return false;
    rows.set(id, { ...row, ...change });
    return true;
  };
  const all = () => [...rows.values()];
  const store: Partial<AbisRequestStorage> = {
    inTransaction: (work) => work(TX),
    create: (_tx, created: readonly NewAbisRequest[]) => {
      for (const row of created) {
        if (rows.has(row.id)) return Promise.reject(new Error(`duplicate request ${row.id}`));
        const { gallery, ...fields } = row;
        rows.set(row.id, {
          ...fields,
          gallery: gallery?.length ? gallery : null,
          returnValue: null,
          failureReason: null,
          candidates: null,
          result: null,
          sentAt: null,
          answeredAt: null,
        });
      }
      return Promise.resolve();
    },
    byId: (id) => Promise.resolve(rows.get(id) ?? null),
    byIds: (ids) =>
      Promise.resolve(void reads.byIds++).then(() =>
        all()
          .filter((row) => ids.includes(row.id))
          .sort((a, b) => a.abisName.localeCompare(b.abisName) || a.id.localeCompare(b.id)),
      ),
    markSent: (_tx, id, now) => {
      if (update(id, 'IN_PROGRESS', { status: 'SENT', sentAt: now })) return Promise.resolve(true);
      const row = rows.get(id);
      if (row && !row.sentAt) rows.set(id, { ...row, sentAt: now });
      return Promise.resolve(false);
    },
    answer: (_tx, id, reply: ReplyRecord, now) =>
      Promise.resolve(
        update(id, ['SENT', 'IN_PROGRESS'], {
          status: reply.status,
          returnValue: reply.returnValue,
          failureReason: reply.failureReason,
          answeredAt: now,
          ...(reply.candidates ? { candidates: [...reply.candidates] } : {}),
          ...(reply.result !== undefined ? { result: reply.result } : {}),
        }),
      ),
    announceAnswer: (_tx, id) => Promise.resolve(void announced.push(id)),
    batch: (_tx, batchId) => Promise.resolve(all().filter((row) => row.batchId === batchId)),
    unanswered: (operations, before, limit) =>
      Promise.resolve(
        all()
          .filter((row) => row.status === 'SENT' && row.sentAt && row.sentAt < before && operations.includes(row.operation))
          .sort((a, b) => a.sentAt!.getTime() - b.sentAt!.getTime())
          .slice(0, limit),
      ),
    fail: (_tx, id, reason, now, from = 'SENT') => Promise.resolve(update(id, from, { status: 'FAILED', failureReason: reason, answeredAt: now })),
    byRids: (rids) =>
      Promise.resolve(
        all()
          .filter((row) => row.rid !== null && rids.includes(row.rid))
          .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id)),
      ),
    answeredIdentifies: (rids) =>
      Promise.resolve(
        all()
          .filter((row) => row.rid !== null && rids.includes(row.rid) && row.operation === 'IDENTIFY' && row.status === 'PROCESSED')
          .sort((a, b) => b.answeredAt!.getTime() - a.answeredAt!.getTime() || a.id.localeCompare(b.id)),
      ),
    latest: (abisNames, operation, perAbis) =>
      Promise.resolve(
        abisNames.flatMap((abisName) =>
          all()
            .filter((row) => row.abisName === abisName && row.operation === operation)
            .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime())
            .slice(0, perAbis),
        ),
      ),
    outstanding: () => {
      const groups = new Map<string, OutstandingCount>();
      for (const row of all().filter((one) => one.status === 'IN_PROGRESS' || one.status === 'SENT')) {
        const key = `${row.abisName}/${row.status}`;
        const group = groups.get(key) ?? { abisName: row.abisName, status: row.status, count: 0, oldest: null };
        group.count++;
        if (!group.oldest || row.createdAt < group.oldest) group.oldest = row.createdAt;
        groups.set(key, group);
      }
      return Promise.resolve([...groups.values()]);
    },
    purgeQuestions: (operations, before) => {
      let purged = 0;
      for (const row of all())
        if (operations.includes(row.operation) && row.createdAt < before && row.status !== 'IN_PROGRESS') purged += Number(rows.delete(row.id));
      return Promise.resolve(purged);
    },
  };
  return { rows, announced, reads, store: store as AbisRequestStorage };
}

/** The pipeline's side of the requests: every call recorded, each accepted. */
export function recordingPipeline() {
  const deduplicated: { rid: string; answer: Parameters<PipelinePort['deduplicatedIn']>[2] }[] = [];
  const failed: { rid: string; reason: string }[] = [];
  const authenticated: { rid: string; matched: boolean }[] = [];
  const port: PipelinePort = {
    deduplicatedIn: (_tx, rid, answer) => Promise.resolve(Boolean(deduplicated.push({ rid, answer }))),
    deduplicationFailedIn: (_tx, rid, reason) => Promise.resolve(Boolean(failed.push({ rid, reason }))),
    authenticatedIn: (_tx, rid, matched) => Promise.resolve(Boolean(authenticated.push({ rid, matched }))),
    relevantCandidates: (_rid, rids) => Promise.resolve([...rids]),
  };
  return { port, deduplicated, failed, authenticated };
}

/** A job's context whose completion does nothing (counted). */
export function jobContext(): Pick<JobContext, 'completeIn'> & { completed: number } {
  const context = {
    completed: 0,
    completeIn: () => Promise.resolve(void context.completed++),
  };
  return context;
}

export interface RecordedJob {
  kind: JobKind;
  payload: JobPayloads[JobKind];
  inTx: boolean;
  held: boolean;
}

/** The jobs: enqueues and holds recorded; a held job runs `run(kind, payload)` (wired to the service's send by the test). */
export function recordingJobs(run: (kind: JobKind, payload: JobPayloads[JobKind]) => Promise<void>) {
  const recorded: RecordedJob[] = [];
  const dueNow: JobKind[] = [];
  const jobs: Jobs = {
    enqueue: (kind, payload, options) => Promise.resolve(void recorded.push({ kind, payload, inTx: Boolean(options?.tx), held: false })),
    hold: (kind, payload, options) => {
      recorded.push({ kind, payload, inTx: Boolean(options.tx), held: true });
      return Promise.resolve({ run: () => run(kind, payload) });
    },
    runDueNow: (kind) => Promise.resolve(dueNow.push(kind) && 0),
  };
  return { jobs, recorded, dueNow };
}

export interface Published {
  destination: string;
  body: string | Buffer;
  headers: Record<string, string>;
}

/** The broker: every publish recorded; `state` settable; `afterPublish` lets a test answer like an ABIS. */
export function recordingQueue(state: MessageQueue['state'] = 'UP') {
  const published: Published[] = [];
  const fake = {
    state,
    description: 'memory',
    afterPublish: undefined as ((message: Published) => void) | undefined,
    publish(destination: string, body: string | Buffer, headers: Record<string, string> = {}) {
      const message = { destination, body, headers };
      published.push(message);
      fake.afterPublish?.(message);
      return Promise.resolve();
    },
    subscribe: () => () => undefined,
    onUp: () => () => undefined,
    close: () => Promise.resolve(),
  };
  return { queue: fake, published };
}

/** A message on a response queue, counting its acknowledgements. */
export function replyMessage(body: string | object): QueueMessage & { acks: number; nacks: number } {
  const message = {
    body: Buffer.from(typeof body === 'string' ? body : JSON.stringify(body), 'utf8'),
    headers: {},
    acks: 0,
    nacks: 0,
    ack: () => void message.acks++,
    nack: () => void message.nacks++,
  };
  return message;
}
