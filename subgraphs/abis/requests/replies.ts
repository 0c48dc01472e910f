import { randomUUID } from 'node:crypto';
import type { EventBus } from '../../../lib/events.js';
import type { JobTx } from '../../../lib/jobs/types.js';
import type { Logger } from '../../../lib/log.js';
import type { QueueMessage } from '../../../lib/queue/index.js';
import type { Clock } from '../../../lib/time.js';
import type { Candidate } from '../../regproc/pipeline/stages.js';
import { answerOf, DUPLICATE_REPLY_CODES, galleryOf, parseReply, scalar, type Reply } from './messages.js';
import { isAwaited, MAX_CANDIDATES, type CandidateLookup, type PipelinePort } from './ports.js';
import type { AbisRequestRow, AbisRequestStorage, NewAbisRequest } from './storage.js';

/**
 * The ABIS's replies (ABIS.md (b), (f)): each applied once per requestId, in a
 * transaction with its effect on the registration, acknowledged after the
 * commit; a duplicate audited, an unknown or malformed one logged, all acknowledged.
 */
export class ReplyHandler {
  constructor(
    private readonly store: AbisRequestStorage,
    private readonly pipeline: PipelinePort,
    private readonly candidatesOf: CandidateLookup,
    private readonly clock: Clock,
    private readonly logger: Logger,
    /** the outbox: requests written in the caller's transaction with their send jobs */
    private readonly enqueue: (tx: JobTx, requests: readonly NewAbisRequest[]) => Promise<void>,
    private readonly events?: Pick<EventBus, 'publish'>,
  ) {}

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
