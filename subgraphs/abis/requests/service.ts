import { randomUUID } from 'node:crypto';
import type { EventBus } from '../../../lib/events.js';
import type { JobContext, Jobs, JobTx } from '../../../lib/jobs/types.js';
import type { Logger } from '../../../lib/log.js';
import type { MessageQueue, QueueMessage } from '../../../lib/queue/index.js';
import type { Clock } from '../../../lib/time.js';
import type { Deduplication } from '../../regproc/pipeline/dedupe.js';
import { StageFault, type StageRegistration } from '../../regproc/pipeline/stages.js';
import type { DataShareService } from '../datashare/service.js';
import { galleryOf, isQuestion, requestMessage } from './messages.js';
import { endpointsOf, type AbisEndpoint, type AbisRequestSettings, type CandidateLookup, type PipelinePort } from './ports.js';
import { ReplyHandler } from './replies.js';
import type { AbisRequestRow, AbisRequestStorage, NewAbisRequest } from './storage.js';

export {
  endpointsOf,
  MAX_CANDIDATES,
  MAX_REQUESTS_LISTED,
  type AbisEndpoint,
  type AbisRequestSettings,
  type CandidateLookup,
  type PipelinePort,
} from './ports.js';

declare module '../../../lib/jobs/types.js' {
  interface JobPayloads {
    /** an ABIS request sent from the outbox: persistent, with the broker's receipt, then SENT */
    'abis.send': { requestId: string };
    /** recurring: requests sent and never answered in time are FAILED, their registrations REPROCESS */
    'abis.expire': Record<string, never>;
    /** recurring (ABIS_PING_INTERVAL_SECONDS): a ping to every ABIS, whose answers make the liveness in /health */
    'abis.ping': Record<string, never>;
  }
}

declare module '../../../lib/events.js' {
  interface DomainEvents {
    /** an operator's question or a delete got its reply (applied and committed): its waiter reads it again */
    'abis.request.answered': { requestId: string };
  }
}

/**
 * The ABIS requests (ABIS.md (a), (b), (f)): per registration and per ABIS
 * strictly insert, its reply, then identify. Requests are written with the
 * registration's state change and sent from this outbox by a job (persistent,
 * with an expiry, SENT once the broker's receipt came); replies are applied
 * once per requestId in a transaction with their effect and acknowledged
 * after it commits. A duplicate reply is audited and acknowledged; an
 * unknown or malformed one is logged and acknowledged. An operator's
 * questions (ping, pendingJobs, referenceCount) and deletes ride the same
 * outbox and replies, with no effect on a registration.
 */
export class AbisRequestService {
  constructor(
    private readonly store: AbisRequestStorage,
    private readonly shares: Pick<DataShareService, 'create'>,
    private readonly pipeline: PipelinePort,
    private readonly candidatesOf: CandidateLookup,
    private readonly jobs: Jobs,
    private readonly queue: MessageQueue,
    private readonly clock: Clock,
    private readonly settings: AbisRequestSettings,
    private readonly logger: Logger,
    /** where an awaited request's answer is announced in this process (every instance hears it by NOTIFY too) */
    events?: Pick<EventBus, 'publish'>,
  ) {
    this.replies = new ReplyHandler(store, pipeline, candidatesOf, clock, logger, (tx, requests) => this.enqueue(tx, requests), events);
  }

  /** how the ABIS's replies are applied */
  private readonly replies: ReplyHandler;

  get endpoints(): AbisEndpoint[] {
    return endpointsOf(this.settings);
  }

  /**
   * The de-duplication the pipeline runs when REGPROC_DEDUPE=abis: an insert
   * to every ABIS, the answer later; and its 1:1, the same insert then an
   * identify whose gallery is the one reference of the identity a change names.
   */
  readonly deduplication: Deduplication = {
    name: 'abis',
    check: async (registration: StageRegistration) => {
      const requests = await this.inserts(registration, null);
      return { answer: { kind: 'waiting', comment: `insert sent to ${requests.length} ABIS` }, keep: (tx) => this.enqueue(tx, requests) };
    },
    verify: async (registration: StageRegistration, referenceId: string) => {
      const requests = await this.inserts(registration, [referenceId]);
      return { comment: `insert and 1:1 identify sent to ${requests.length} ABIS`, keep: (tx) => this.enqueue(tx, requests) };
    },
    // ABIS.md (b): a registration finally rejected as a duplicate leaves the ABIS's gallery (ABIS_DELETE_REJECTED).
    rejected: async (tx, registration, now) => {
      if (!this.settings.deleteRejected || !registration.bioRefId) return;
      await this.enqueue(tx, this.deletes(registration.rid, registration.bioRefId, 'platform', now));
    },
  };

  /** One attempt's inserts of a registration's biometrics, one per ABIS, with a fresh data share; the identifies that follow search `gallery` when given. */
  private async inserts(registration: StageRegistration, gallery: string[] | null): Promise<NewAbisRequest[]> {
    if (!registration.bioRefId) throw new StageFault('the registration has no biometric reference');
    const batchId = randomUUID();
    const share = await this.shares.create(registration.rid);
    const now = this.clock.now();
    return this.endpoints.map((endpoint) => ({
      id: randomUUID(),
      abisName: endpoint.name,
      operation: 'INSERT',
      rid: registration.rid,
      batchId,
      referenceId: registration.bioRefId!,
      referenceUrl: share.url,
      gallery: gallery && galleryOf(gallery),
      status: 'IN_PROGRESS',
      requestedBy: 'platform',
      createdAt: now,
    }));
  }

  /** A delete of a registration's reference at every ABIS. */
  deletes(rid: string, referenceId: string, requestedBy: string, now: Date): NewAbisRequest[] {
    return this.endpoints.map((endpoint) => ({
      id: randomUUID(),
      abisName: endpoint.name,
      operation: 'DELETE',
      rid,
      batchId: null,
      referenceId,
      referenceUrl: null,
      status: 'IN_PROGRESS',
      requestedBy,
      createdAt: now,
    }));
  }

  /** Requests written in the caller's transaction, each with the job that sends it (the outbox). */
  async enqueue(tx: JobTx, requests: readonly NewAbisRequest[]): Promise<void> {
    await this.store.create(tx, requests);
    for (const request of requests) await this.jobs.enqueue('abis.send', { requestId: request.id }, { tx });
  }

  /** The same, each send held by this process to run at once after the commit (an operator waits for the answers). */
  async enqueueHeld(requests: readonly NewAbisRequest[]): Promise<void> {
    const held = await this.store.inTransaction(async (tx) => {
      await this.store.create(tx, requests);
      return Promise.all(requests.map((request) => this.jobs.hold('abis.send', { requestId: request.id }, { tx })));
    });
    await Promise.all(held.map((job) => job.run()));
  }

  private endpoint(name: string): AbisEndpoint {
    const found = this.endpoints.find((endpoint) => endpoint.name === name);
    if (!found) throw new Error(`ABIS ${name} is not configured (ABIS_COUNT)`);
    return found;
  }

  /** How long a request may wait in the queue: a question is worth nothing once its answer is late. */
  private ttlSecondsOf(operation: string): number {
    return isQuestion(operation) ? this.settings.pingTimeoutSeconds : this.settings.messageTtlSeconds;
  }

  /** The `abis.send` job: the request on its queue, then SENT with the job's completion. A broker away fails the job, which retries. */
  async send(requestId: string, job: Pick<JobContext, 'completeIn'>): Promise<void> {
    const row = await this.store.byId(requestId);
    if (row?.status !== 'IN_PROGRESS') return;
    const now = this.clock.now();
    // A question whose answer would come too late (the broker was away) is not worth sending.
    if (isQuestion(row.operation) && now.getTime() - row.createdAt.getTime() > this.settings.pingTimeoutSeconds * 1000) {
      await this.store.inTransaction(async (tx) => {
        await this.store.fail(tx, row.id, 'not sent in time', now, 'IN_PROGRESS');
        await job.completeIn(tx);
      });
      return;
    }
    const body = JSON.stringify(requestMessage(row, now));
    await this.queue.publish(`/queue/${this.endpoint(row.abisName).requestQueue}`, this.settings.messageFormat === 'bytes' ? Buffer.from(body, 'utf8') : body, {
      'content-type': 'application/json;charset=utf-8',
      'correlation-id': row.id,
      expires: String(now.getTime() + this.ttlSecondsOf(row.operation) * 1000),
    });
    await this.store.inTransaction(async (tx) => {
      await this.store.markSent(tx, row.id, this.clock.now());
      await job.completeIn(tx);
    });
  }

  /** Subscribes to every ABIS's response queue (client-individual acknowledgement); returns the unsubscribers. */
  listen(): (() => void)[] {
    return this.endpoints.map((endpoint) => this.queue.subscribe(`/queue/${endpoint.responseQueue}`, (message) => this.onReply(message)));
  }

  /** One reply: applied once, in a transaction with its effect, acknowledged after the commit (replies.ts). */
  onReply(message: QueueMessage): Promise<void> {
    return this.replies.onReply(message);
  }

  /**
   * The recurring `abis.expire`: an insert or identify sent and not answered
   * in ABIS_RESPONSE_TIMEOUT_SECONDS is FAILED, its registration REPROCESS; a
   * delete or a question unanswered past its own timeout is FAILED alone.
   */
  async expire(): Promise<number> {
    const now = this.clock.now().getTime();
    const pipelineBefore = new Date(now - this.settings.responseTimeoutSeconds * 1000);
    const questionsBefore = new Date(now - this.settings.pingTimeoutSeconds * 1000);
    const rows = [
      ...(await this.store.unanswered(['INSERT', 'IDENTIFY'], pipelineBefore, 200)),
      ...(await this.store.unanswered(['DELETE'], pipelineBefore, 200)),
      ...(await this.store.unanswered(['PING', 'PENDING_JOBS', 'REFERENCE_COUNT'], questionsBefore, 200)),
    ];
    let expired = 0;
    for (const row of rows) {
      const done = await this.store.inTransaction(async (tx) => {
        const at = this.clock.now();
        if (!(await this.store.fail(tx, row.id, 'no reply in time', at))) return false;
        if (row.operation === 'INSERT' || row.operation === 'IDENTIFY') {
          const waited = this.settings.responseTimeoutSeconds;
          await this.pipeline.deduplicationFailedIn(tx, row.rid!, `ABIS ${row.abisName} did not answer ${row.operation.toLowerCase()} in ${waited} s`, at);
        }
        return true;
      });
      if (done) expired++;
    }
    return expired;
  }

  requestsByRids(rids: readonly string[]): Promise<AbisRequestRow[]> {
    return this.store.byRids(rids);
  }

  requestsByIds(ids: readonly string[]): Promise<AbisRequestRow[]> {
    return this.store.byIds(ids);
  }

  /** Each registration's candidates as its latest answered de-duplication attempt found them (RIDs), by RID. */
  async candidatesByRids(rids: readonly string[]): Promise<Map<string, string[]>> {
    const latestBatch = new Map<string, string>();
    const found = new Map<string, Set<string>>();
    for (const row of await this.store.answeredIdentifies(rids)) {
      const batch = latestBatch.get(row.rid!) ?? row.batchId!;
      latestBatch.set(row.rid!, batch);
      if (row.batchId !== batch) continue;
      const set = found.get(row.rid!) ?? new Set<string>();
      for (const rid of (row.candidates as string[] | null) ?? []) set.add(rid);
      found.set(row.rid!, set);
    }
    return new Map([...found].map(([rid, set]) => [rid, [...set].sort()]));
  }
}
