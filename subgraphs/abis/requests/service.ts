import { randomUUID } from 'node:crypto';
import type { EventBus } from '../../../lib/events.js';
import type { JobContext, Jobs, JobTx } from '../../../lib/jobs/types.js';
import type { Logger } from '../../../lib/log.js';
import type { MessageQueue, QueueMessage } from '../../../lib/queue/index.js';
import type { Clock } from '../../../lib/time.js';
import type { Deduplication, DedupeAnswer } from '../../regproc/pipeline/dedupe.js';
import { StageFault, type Candidate, type StageRegistration } from '../../regproc/pipeline/stages.js';
import type { DataShareService } from '../datashare/service.js';
import type { AbisSettings } from '../settings.js';
import { answerOf, DUPLICATE_REPLY_CODES, galleryOf, isQuestion, parseReply, requestMessage, scalar, type Reply } from './messages.js';
import type { AbisRequestRow, AbisRequestStorage, NewAbisRequest } from './storage.js';

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

/** Requests someone may wait on (AbisOperatorService): the operator's questions and deletes, not the pipeline's insert and identify. */
const isAwaited = (operation: string) => operation !== 'INSERT' && operation !== 'IDENTIFY';

/** One ABIS and its queue pair (ABIS.md (a)). */
export interface AbisEndpoint {
  name: string;
  requestQueue: string;
  responseQueue: string;
}

/** What the requests need of the pipeline: an asynchronous de-duplication's or authentication's answer or failure, in the reply's transaction. */
export interface PipelinePort {
  deduplicatedIn(tx: JobTx, rid: string, answer: Exclude<DedupeAnswer, { kind: 'waiting' }>, now: Date): Promise<boolean>;
  deduplicationFailedIn(tx: JobTx, rid: string, reason: string, now: Date): Promise<boolean>;
  /** the answer of a 1:1 against a changed identity's reference */
  authenticatedIn(tx: JobTx, rid: string, matched: boolean, now: Date): Promise<boolean>;
  /** of a registration's candidates (RIDs), those that are someone else (not the identity it changes); read before the transaction */
  relevantCandidates(rid: string, candidateRids: readonly string[]): Promise<string[]>;
}

/** The registrations an identify's candidates name, by biometric reference in lower case. */
export type CandidateLookup = (referenceIds: readonly string[]) => Promise<Map<string, { rid: string; status: string }>>;

/** The candidates of one identify reply that are looked at (MOSIP asks an ABIS for 30 at most, `maxResults`). */
export const MAX_CANDIDATES = 100;

/**
 * The most ABIS requests a registration's list answers (Registration.abisRequests): an attempt writes an
 * insert and an identify per ABIS (MAX_ABIS at most), so this holds dozens of attempts; beyond, the
 * portal pages through abisRequests(filter: {registrationId}).
 */
export const MAX_REQUESTS_LISTED = 1000;

/** The ABIS endpoints ABIS_COUNT configures: abis1 on the queues as named, abisN on `<request>N` / `abisN-to-platform`. */
export function endpointsOf(settings: Pick<AbisSettings, 'count' | 'requestQueue' | 'responseQueue'>): AbisEndpoint[] {
  return Array.from({ length: settings.count }, (_, index) =>
    index === 0
      ? { name: 'abis1', requestQueue: settings.requestQueue, responseQueue: settings.responseQueue }
      : { name: `abis${index + 1}`, requestQueue: `${settings.requestQueue}${index + 1}`, responseQueue: `abis${index + 1}-to-platform` },
  );
}

/** The settings the requests read. */
export type AbisRequestSettings = Pick<
  AbisSettings,
  'count' | 'requestQueue' | 'responseQueue' | 'messageFormat' | 'messageTtlSeconds' | 'responseTimeoutSeconds' | 'pingTimeoutSeconds' | 'deleteRejected'
>;

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
    private readonly events?: Pick<EventBus, 'publish'>,
  ) {}

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

  /** One reply: applied once, in a transaction with its effect, acknowledged after the commit; anything else acknowledged and logged. */
  async onReply(message: QueueMessage): Promise<void> {
    const reply = parseReply(message.body);
    if (!reply) {
      this.logger.warn({ bytes: message.body.length }, 'ABIS reply is not a JSON object: dropped');
      return message.ack();
    }
    const requestId = typeof reply.requestId === 'string' ? reply.requestId.toLowerCase() : undefined;
    const row = requestId ? await this.store.byId(requestId) : null;
    if (!row) {
      this.logger.warn({ requestId: requestId ?? null }, 'ABIS reply to no known request: dropped');
      return message.ack();
    }
    // Read before the transaction: nothing outside it may wait on a connection while it holds one.
    const candidates = row.operation === 'IDENTIFY' && scalar(reply.returnValue) === '1' ? await this.candidates(row, reply) : { rids: [], matched: false };
    const applied = await this.store.inTransaction((tx) => this.apply(tx, row, reply, candidates));
    if (!applied)
      this.logger.info(
        { requestId: row.id, rid: row.rid, operation: row.operation, code: DUPLICATE_REPLY_CODES[row.operation] ?? null },
        'duplicate ABIS reply: ignored',
      );
    else if (isAwaited(row.operation)) await this.events?.publish('abis.request.answered', { requestId: row.id });
    message.ack();
  }

  private async apply(tx: JobTx, row: AbisRequestRow, reply: Reply, candidates: IdentifyFinding): Promise<boolean> {
    const now = this.clock.now();
    const returnValue = scalar(reply.returnValue) ?? '';
    const failureReason = scalar(reply.failureReason);
    if (row.operation === 'INSERT') return this.applyInsert(tx, row, returnValue, failureReason, now);
    if (row.operation === 'IDENTIFY') return this.applyIdentify(tx, row, returnValue, failureReason, candidates, now);
    // A delete of a reference the ABIS no longer holds (12) has the effect asked for.
    const done = returnValue === '1' || (row.operation === 'DELETE' && returnValue === '2' && failureReason === '12');
    const status = returnValue === '1' ? 'PROCESSED' : done ? 'ALREADY_PROCESSED' : 'FAILED';
    const answered = await this.store.answer(tx, row.id, { status, returnValue, failureReason, result: answerOf(row.operation, reply) }, now);
    if (answered) await this.store.announceAnswer(tx, row.id);
    if (answered && !done) this.logger.warn({ requestId: row.id, abis: row.abisName, operation: row.operation, failureReason }, 'ABIS answered with a failure');
    return answered;
  }

  private async applyInsert(tx: JobTx, row: AbisRequestRow, returnValue: string, failureReason: string | null, now: Date): Promise<boolean> {
    // ABIS.md (b): an insert of a reference the ABIS holds already (reason 10) is a success: a retry's insert.
    const ok = returnValue === '1' || (returnValue === '2' && failureReason === '10');
    const status = returnValue === '1' ? 'PROCESSED' : ok ? 'ALREADY_PROCESSED' : 'FAILED';
    if (!(await this.store.answer(tx, row.id, { status, returnValue, failureReason }, now))) return false;
    if (!ok) await this.pipeline.deduplicationFailedIn(tx, row.rid!, `ABIS ${row.abisName} insert failed (reason ${failureReason ?? 'none'})`, now);
    else
      // Strictly after its insert, so a registration's requests read in order even within one clock tick.
      await this.enqueue(tx, [
        {
          ...toNew(row),
          id: randomUUID(),
          operation: 'IDENTIFY',
          status: 'IN_PROGRESS',
          createdAt: new Date(Math.max(now.getTime(), row.createdAt.getTime() + 1)),
        },
      ]);
    return true;
  }

  private async applyIdentify(
    tx: JobTx,
    row: AbisRequestRow,
    returnValue: string,
    failureReason: string | null,
    candidates: IdentifyFinding,
    now: Date,
  ): Promise<boolean> {
    if (returnValue !== '1') {
      if (!(await this.store.answer(tx, row.id, { status: 'FAILED', returnValue, failureReason }, now))) return false;
      await this.pipeline.deduplicationFailedIn(tx, row.rid!, `ABIS ${row.abisName} identify failed (reason ${failureReason ?? 'none'})`, now);
      return true;
    }
    const result = galleryOf(row.gallery).length ? (candidates.matched ? 'MATCH' : 'NO_MATCH') : undefined;
    const answer = { status: 'PROCESSED', returnValue, failureReason, candidates: candidates.rids, ...(result ? { result } : {}) };
    if (!(await this.store.answer(tx, row.id, answer, now))) return false;
    await this.settleBatch(tx, row, now);
    return true;
  }

  /**
   * What an identify found: the registrations its candidates name
   * (case-insensitive; the probe itself, unknown and REJECTED ones dropped,
   * and for a change those of the identity it changes), and for a 1:1
   * whether the gallery's reference was among them.
   */
  private async candidates(row: AbisRequestRow, reply: Reply): Promise<IdentifyFinding> {
    const listed = Array.isArray(reply.candidateList?.candidates) ? reply.candidateList.candidates : [];
    // An adjudicator reads each candidate: a reply naming thousands is an ABIS fault, and an unbounded look-up besides.
    if (listed.length > MAX_CANDIDATES)
      this.logger.warn(
        { requestId: row.id, abis: row.abisName, listed: listed.length, kept: MAX_CANDIDATES },
        'ABIS named too many candidates: the first kept',
      );
    const ids = listed
      .slice(0, MAX_CANDIDATES)
      .map((candidate) => (typeof candidate?.referenceId === 'string' ? candidate.referenceId.toLowerCase() : ''))
      .filter(Boolean);
    const gallery = galleryOf(row.gallery);
    const found = await this.candidatesOf(ids);
    const rids = [
      ...new Set(
        ids
          .map((id) => found.get(id))
          .filter((match) => match && match.rid !== row.rid && match.status !== 'REJECTED')
          .map((match) => match!.rid),
      ),
    ].sort();
    if (gallery.length) return { rids, matched: ids.some((id) => gallery.includes(id)) };
    return { rids: await this.pipeline.relevantCandidates(row.rid!, rids), matched: false };
  }

  /** When every ABIS of the attempt has answered its identify: the candidates of all of them to the pipeline. */
  private async settleBatch(tx: JobTx, row: AbisRequestRow, now: Date): Promise<void> {
    const batch = await this.store.batch(tx, row.batchId!);
    const identifies = batch.filter((request) => request.operation === 'IDENTIFY');
    // Every ABIS the attempt inserted to (ABIS_COUNT may have changed since) must have answered.
    const waiting = batch.filter((request) => request.operation === 'INSERT').length - identifies.filter((request) => request.status === 'PROCESSED').length;
    if (waiting > 0) return;
    // A 1:1 (a gallery): the resident is who the change names when an ABIS found the identity's reference.
    if (galleryOf(row.gallery).length) {
      await this.pipeline.authenticatedIn(
        tx,
        row.rid!,
        identifies.some((request) => request.result === 'MATCH'),
        now,
      );
      return;
    }
    const rids = [...new Set(identifies.flatMap((request) => (request.candidates as string[] | null) ?? []))].sort();
    const candidates: Candidate[] = rids.map((rid) => ({ rid, refType: 'RID', reasonCode: 'BIO' }));
    await this.pipeline.deduplicatedIn(tx, row.rid!, candidates.length ? { kind: 'candidates', candidates } : { kind: 'unique' }, now);
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

/** What an identify's reply found (before its transaction). */
interface IdentifyFinding {
  rids: string[];
  /** a 1:1: whether the gallery's reference was a candidate */
  matched: boolean;
}

/** A request as written, from a stored one: its answer's fields left out, its gallery a list again. */
const toNew = ({
  returnValue: _value,
  failureReason: _reason,
  candidates: _candidates,
  result: _result,
  sentAt: _sent,
  answeredAt: _answered,
  gallery,
  ...written
}: AbisRequestRow): NewAbisRequest => ({
  ...written,
  gallery: galleryOf(gallery),
});
