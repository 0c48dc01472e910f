import type { Registration } from '../../../generated/prisma/client.js';
import { PlatformError } from '../../../lib/errors.js';
import type { Connection, PageArgs } from '../../../lib/graph/connection.js';
import type { JobContext, Jobs } from '../../../lib/jobs/types.js';
import type { Logger } from '../../../lib/log.js';
import type { Clock } from '../../../lib/time.js';
import { deduplicationOutcome, type Deduplication, type DedupeAnswer } from './dedupe.js';
import { isDeterministicDatabaseError } from '../../../lib/db/errors.js';
import { authenticationOutcome } from './authenticate.js';
import { ACTIVE_STATUSES, JOB_STAGES, StageFault, type JobStage, type Stage, type StageOutcome } from './stages.js';
import type { PipelineStorage, PipelineTx } from './storage.js';
import { OutcomeRecorder } from './recorder.js';
import { endOf, StageRuns, type StageRunEnd, type StageRunObserver } from './stage-runs.js';
import type { StageWork } from './work.js';

export interface PipelineSettings {
  reprocessElapseSeconds: number;
  reprocessMaxAttempts: number;
  stuckAfterSeconds: number;
}

/** The most stuck registrations one resume of a stage takes on (ResumedRegistrations.resumed): the rest wait for the next. */
export const RESUME_LIMIT = 1000;

/** A resume that cannot apply: the registration is not stuck (or waits for an adjudicator). */
export const notStuck = (rid: string, why: string) => new PlatformError('RPR-RGS-015', `Invalid request value, input data incorrect: ${rid} ${why}`);

const isJobStage = (stage: string | null): stage is JobStage => (JOB_STAGES as readonly string[]).includes(stage ?? '');

/** The stages a registration waits at for an asynchronous answer (an ABIS's). */
const WAITING_STAGES: ReadonlySet<string> = new Set(['BIOMETRIC_AUTHENTICATION', 'BIOGRAPHIC_VERIFICATION']);

/**
 * The pipeline (ABIS.md (e)): each stage a job; a stage's outcome, its
 * transactions and the next stage's job commit together with the job's
 * completion, so a worker killed anywhere leaves the registration where
 * the last commit put it and the job runs again. A stage that fails for a
 * reason of the platform goes to REPROCESS and runs again after the
 * elapse time, up to the attempt limit (REPROCESS_FAILED); admins resume
 * stuck registrations one by one or a whole stage at a time.
 */
export class PipelineService {
  constructor(
    private readonly store: PipelineStorage,
    private readonly work: StageWork,
    jobs: Jobs,
    private readonly clock: Clock,
    private readonly settings: PipelineSettings,
    private readonly logger: Logger,
    private deduplication: Deduplication,
  ) {
    this.recorder = new OutcomeRecorder(store, jobs, clock, settings, logger);
    this.runs = new StageRuns(logger);
  }

  /** how outcomes and failures are written (recorder.ts) */
  private readonly recorder: OutcomeRecorder;
  /** each stage run's log line and observers (stage-runs.ts) */
  private readonly runs: StageRuns;

  /** Tells `observer` of every stage run in this process (the metrics' stage durations); answers how to stop. */
  observeStages(observer: StageRunObserver): () => void {
    return this.runs.observe(observer);
  }

  /** The de-duplication the BIOGRAPHIC_VERIFICATION stage runs (the ABIS component puts its own here). */
  get dedupe(): Deduplication {
    return this.deduplication;
  }

  useDeduplication(deduplication: Deduplication): void {
    this.deduplication = deduplication;
  }

  /** The packet receiver's hand-over, in its transaction: the first stage's job. */
  packetReceived(tx: PipelineTx, rid: string): Promise<void> {
    return this.recorder.enqueue(tx, 'UPLOAD_PACKET', rid);
  }

  /** The job of a stage: its work, then its outcome recorded with the job's completion. */
  async runStage(stage: JobStage, rid: string, job: Pick<JobContext, 'completeIn'>): Promise<void> {
    const row = await this.store.byRid(rid);
    // A job of a stage the registration has left (a duplicate run, a resume that overtook it) has nothing to do.
    if (!row || row.stage !== stage || !ACTIVE_STATUSES.has(row.status)) return;
    const started = performance.now();
    let outcome: StageOutcome | undefined;
    let failure: unknown;
    try {
      outcome = await this.work.run(stage, row);
    } catch (error) {
      failure = error;
    }
    const write = (result: StageOutcome | undefined, error: unknown) =>
      this.recorder.commit(row, async (tx, now) => {
        // Completed first: the job gives up its singleton key, which the next stage's job takes.
        await job.completeIn(tx);
        if (result) await this.recorder.record(tx, row, stage, result, now);
        else await this.recorder.fail(tx, row, stage, error, now);
      });
    let end: StageRunEnd = 'error';
    try {
      end = (await write(outcome, failure)) ? endOf(outcome, failure) : 'overtaken';
    } catch (error) {
      // An outcome the database refuses for what it holds is refused again on every retry: the stage stops here, once.
      if (!isDeterministicDatabaseError(error)) throw error;
      const reference = this.recorder.internalError(row.rid, stage, error);
      await write(undefined, new StageFault(`the outcome of ${stage} could not be stored (internal error ${reference})`, true));
      end = 'fault';
    } finally {
      this.runs.ran({ rid: row.rid, stage, outcome: end, ms: performance.now() - started });
    }
  }

  /** A stage's job that spent its runner attempts (the database itself failing): the registration waits for an admin. */
  async jobDied(stage: JobStage, rid: string, reason: string): Promise<void> {
    const row = await this.store.byRid(rid);
    if (!row || row.stage !== stage || !ACTIVE_STATUSES.has(row.status)) return;
    // The runner's reason is a message of the job's last failure: the log has it, the registration a reference.
    const shown = `internal error ${this.recorder.internalError(rid, stage, reason)}: see the platform's log`;
    await this.recorder.commit(row, async (tx, now) => {
      await this.recorder.move(tx, row, { status: 'REPROCESS_FAILED', lastError: shown }, now);
      await this.store.record(tx, row.rid, row.langCode, stage, [{ statusCode: 'REPROCESS_FAILED', comment: shown }], now);
    });
  }

  /** The recurring reprocessor: REPROCESS registrations whose time has come go back to their stage. */
  async reprocessDue(): Promise<number> {
    let moved = 0;
    for (const row of await this.store.dueForReprocess(this.clock.now(), 200)) {
      if (!isJobStage(row.stage)) continue;
      const stage = row.stage;
      const done = await this.recorder.commit(row, async (tx, now) => {
        await this.recorder.move(tx, row, { status: 'PROCESSING', nextAttemptAt: null }, now, ['REPROCESS']);
        await this.store.record(
          tx,
          row.rid,
          row.langCode,
          stage,
          [{ type: 'PACKET_REPROCESS', statusCode: 'IN_PROGRESS', comment: `attempt ${row.attempts + 1} of ${stage}` }],
          now,
        );
        await this.recorder.enqueue(tx, stage, row.rid);
      });
      if (done) moved++;
    }
    return moved;
  }

  /**
   * An answer of an asynchronous de-duplication (an ABIS reply) for a
   * registration waiting at BIOGRAPHIC_VERIFICATION, in the caller's
   * transaction (the reply's own record commits with it): recorded as the
   * stage's outcome would have been. False when the registration is no
   * longer waiting there.
   */
  async deduplicatedIn(tx: PipelineTx, rid: string, answer: Exclude<DedupeAnswer, { kind: 'waiting' }>, now: Date): Promise<boolean> {
    const row = await this.store.byRidIn(tx, rid);
    if (!row || row.stage !== 'BIOGRAPHIC_VERIFICATION' || !ACTIVE_STATUSES.has(row.status)) return false;
    return this.recorder.recordIn(() => this.recorder.record(tx, row, 'BIOGRAPHIC_VERIFICATION', deduplicationOutcome(answer), now));
  }

  /** The same, in a transaction of its own. */
  deduplicated(rid: string, answer: Exclude<DedupeAnswer, { kind: 'waiting' }>): Promise<boolean> {
    return this.store.inTransaction((tx) => this.deduplicatedIn(tx, rid, answer, this.clock.now()));
  }

  /**
   * An asynchronous check that failed for a reason of the platform's (an
   * ABIS's failed reply, no reply in time) for a registration waiting at
   * BIOMETRIC_AUTHENTICATION or BIOGRAPHIC_VERIFICATION, in the caller's
   * transaction: the stage is REPROCESS, as if it had thrown.
   */
  async deduplicationFailedIn(tx: PipelineTx, rid: string, reason: string, now: Date): Promise<boolean> {
    const row = await this.store.byRidIn(tx, rid);
    if (!row || !WAITING_STAGES.has(row.stage ?? '') || !ACTIVE_STATUSES.has(row.status)) return false;
    return this.recorder.recordIn(() => this.recorder.fail(tx, row, row.stage as Stage, new StageFault(reason), now));
  }

  /**
   * An ABIS's 1:1 answer for a registration waiting at BIOMETRIC_AUTHENTICATION
   * (the identify against the changed identity's reference), in the reply's
   * transaction: a match goes on to de-duplication, no match rejects the change.
   */
  async authenticatedIn(tx: PipelineTx, rid: string, matched: boolean, now: Date): Promise<boolean> {
    const row = await this.store.byRidIn(tx, rid);
    if (!row || row.stage !== 'BIOMETRIC_AUTHENTICATION' || !ACTIVE_STATUSES.has(row.status)) return false;
    return this.recorder.recordIn(() => this.recorder.record(tx, row, 'BIOMETRIC_AUTHENTICATION', authenticationOutcome(matched), now));
  }

  /**
   * Of an asynchronous de-duplication's candidates (RIDs), those that are
   * someone else (work.ts `others`): read before the answer's transaction.
   */
  async relevantCandidates(rid: string, candidateRids: readonly string[]): Promise<string[]> {
    const row = await this.store.byRid(rid);
    if (!row || !candidateRids.length) return [...candidateRids];
    const answer = await this.work.others(
      row,
      candidateRids.map((candidate) => ({ rid: candidate, refType: 'RID', reasonCode: 'BIO' })),
    );
    return answer.kind === 'candidates' ? answer.candidates.map((candidate) => candidate.rid) : [];
  }

  /** An adjudicator's decision, in the verification's transaction: approved goes on to the UIN, rejected ends the registration. */
  async adjudicated(tx: PipelineTx, row: Registration, approved: boolean, adjudicator: string, now: Date): Promise<void> {
    const outcome: StageOutcome = approved
      ? { kind: 'next', next: 'UIN_GENERATOR', transactions: [{ statusCode: 'SUCCESS', comment: `approved by ${adjudicator}` }] }
      : { kind: 'end', status: 'REJECTED', transactions: [{ statusCode: 'REJECTED', comment: `rejected by ${adjudicator}` }] };
    await this.recorder.record(tx, row, 'MANUAL_ADJUDICATION', outcome, now);
    if (!approved) await this.deduplication.rejected?.(tx, row, now);
  }

  private idleBefore(): Date {
    return new Date(this.clock.now().getTime() - this.settings.stuckAfterSeconds * 1000);
  }

  stuck(stage: string | null, page: PageArgs): Promise<Connection<Registration>> {
    return this.store.stuck({ idleBefore: this.idleBefore(), stage }, page);
  }

  stuckCount(): Promise<number> {
    return this.store.stuckCount(this.idleBefore());
  }

  countsByStage() {
    return this.store.countsByStage();
  }

  /** The registrations not yet ended (PROCESSED, REJECTED) by stage and status (metrics). */
  inFlightByStage() {
    return this.store.countsByStage(['PROCESSED', 'REJECTED']);
  }

  /**
   * Takes stuck registrations on: one RID, or every stuck one of a stage (up
   * to `limit`). Each runs its stage again at once with a fresh attempt
   * budget, and its transactions name the admin (WORKFLOW_RESUME). A
   * registration waiting for an adjudicator is not stuck.
   */
  async resume(admin: string, target: { rid: string } | { stage: string }, limit = RESUME_LIMIT): Promise<string[]> {
    const idleBefore = this.idleBefore();
    const rids = 'rid' in target ? [target.rid] : await this.store.stuckRids({ idleBefore, stage: target.stage }, limit);
    const resumed: string[] = [];
    for (const rid of rids) {
      const row = await this.store.byRid(rid);
      const stuck = row && this.isStuck(row, idleBefore);
      if (!row || !stuck || !isJobStage(row.stage)) {
        if ('rid' in target) throw notStuck(rid, row ? 'is not stuck' : 'is not a registration');
        continue;
      }
      const stage = row.stage;
      const done = await this.recorder.commit(row, async (tx, now) => {
        await this.recorder.move(tx, row, { status: 'PROCESSING', attempts: 0, lastError: null, nextAttemptAt: null }, now, [row.status]);
        await this.store.record(
          tx,
          row.rid,
          row.langCode,
          stage,
          [{ type: 'WORKFLOW_RESUME', statusCode: 'SUCCESS', comment: `${stage} resumed by ${admin}` }],
          now,
        );
        await this.recorder.enqueue(tx, stage, row.rid);
      });
      if (done) resumed.push(rid);
    }
    this.logger.info({ admin, target, resumed: resumed.length }, 'stuck registrations resumed');
    return resumed;
  }

  private isStuck(row: Registration, idleBefore: Date): boolean {
    if (['REPROCESS', 'REPROCESS_FAILED', 'FAILED'].includes(row.status)) return true;
    return ['PACKET_RECEIVED', 'PROCESSING'].includes(row.status) && row.stage !== 'MANUAL_ADJUDICATION' && !!row.progressAt && row.progressAt < idleBefore;
  }
}
