import { randomUUID } from 'node:crypto';
import type { Registration } from '../../../generated/prisma/client.js';
import { PlatformError } from '../../../lib/errors.js';
import type { Jobs } from '../../../lib/jobs/types.js';
import type { Logger } from '../../../lib/log.js';
import { ObjectStoreError } from '../../../lib/object-store/common.js';
import type { Clock } from '../../../lib/time.js';
import { STAGE_JOBS, StageFault, StageRejection, type JobStage, type Stage, type StageOutcome, type StageTransaction } from './stages.js';
import type { PipelineStorage, PipelineTx, RegistrationChange } from './storage.js';

/** Another run moved the registration first: this one's writes roll back. */
export class Overtaken extends Error {}

/** A failure an operator may read as it is: the platform's own refusals and faults, whose messages name files and fields, never a resident. */
const isShown = (error: unknown): error is Error => error instanceof StageRejection || error instanceof StageFault || error instanceof PlatformError;

/**
 * How a stage's outcome or failure is written: the registration moved on
 * only from where the run found it (else Overtaken, and the caller's
 * transaction rolls back), its transactions, the next stage's job; a
 * failure's reason as operators may read it.
 */
export class OutcomeRecorder {
  constructor(
    private readonly store: PipelineStorage,
    private readonly jobs: Jobs,
    private readonly clock: Clock,
    private readonly settings: { reprocessElapseSeconds: number; reprocessMaxAttempts: number },
    private readonly logger: Logger,
  ) {}

  /** One job per registration at a time: a second enqueue while one waits or runs is dropped. */
  enqueue(tx: PipelineTx, stage: JobStage, rid: string): Promise<void> {
    return this.jobs.enqueue(STAGE_JOBS[stage], { rid }, { tx, singletonKey: `regproc:${rid}` });
  }

  /** An error whose text is not for operators: logged whole, shown as a reference to that log line. */
  internalError(rid: string, stage: string, error: unknown): string {
    const reference = randomUUID().slice(0, 8);
    this.logger.error({ rid, stage, reference, err: error }, 'registration stage: internal error');
    return reference;
  }

  /**
   * A stage's failure as it is kept and shown: a refusal's or fault's own
   * message; anything else a reference to the log (the object store's named
   * as such: its text holds addresses and paths).
   */
  reasonOf(rid: string, stage: string, error: unknown): string {
    if (isShown(error)) return error.message.slice(0, 500);
    const what = error instanceof ObjectStoreError ? 'the object store failed: ' : '';
    return `${what}internal error ${this.internalError(rid, stage, error)}: see the platform's log`;
  }

  async commit(row: Registration, write: (tx: PipelineTx, now: Date) => Promise<void>): Promise<boolean> {
    try {
      await this.store.inTransaction((tx) => write(tx, this.clock.now()));
      return true;
    } catch (error) {
      if (error instanceof Overtaken) {
        this.logger.info({ rid: row.rid, stage: row.stage }, 'registration moved on by another run; this one is dropped');
        return false;
      }
      throw error;
    }
  }

  async move(tx: PipelineTx, row: Registration, change: RegistrationChange, now: Date, from?: readonly string[]): Promise<void> {
    if (!(await this.store.move(tx, row.rid, { stage: row.stage, ...(from ? { from } : {}) }, change, now))) throw new Overtaken();
  }

  async record(tx: PipelineTx, row: Registration, stage: Stage, outcome: StageOutcome, now: Date): Promise<void> {
    const reset = { attempts: 0, lastError: null, nextAttemptAt: null, ...(outcome.bioRefId ? { bioRefId: outcome.bioRefId } : {}) };
    if (outcome.kind === 'next') {
      await this.move(tx, row, { status: 'PROCESSING', stage: outcome.next, ...reset }, now);
      if (outcome.candidates?.length) await this.store.addCandidates(tx, row.rid, outcome.candidates, now);
      if (outcome.next !== 'MANUAL_ADJUDICATION') await this.enqueue(tx, outcome.next, row.rid);
    } else await this.move(tx, row, { status: outcome.kind === 'wait' ? 'PROCESSING' : outcome.status, ...reset }, now);
    await outcome.keep?.(tx, now);
    await this.store.record(tx, row.rid, row.langCode, stage, outcome.transactions, now);
  }

  /**
   * A refusal ends the registration, recorded after the checks it passed; a
   * failure whose outcome could not be stored stops it (REPROCESS_FAILED);
   * any other failure is the platform's: REPROCESS, or REPROCESS_FAILED past the limit.
   */
  async fail(tx: PipelineTx, row: Registration, stage: Stage, error: unknown, now: Date): Promise<void> {
    const reason = this.reasonOf(row.rid, stage, error);
    if (error instanceof StageRejection) {
      await this.move(tx, row, { status: error.status, lastError: reason }, now);
      const refusal: StageTransaction = { type: error.transactionType, statusCode: error.status, subStatusCode: error.subStatusCode, comment: reason };
      await this.store.record(tx, row.rid, row.langCode, stage, [...error.passed, refusal], now);
      return;
    }
    const attempts = row.attempts + 1;
    const spent = attempts >= this.settings.reprocessMaxAttempts || (error instanceof StageFault && error.final);
    const nextAttemptAt = spent ? null : new Date(now.getTime() + this.settings.reprocessElapseSeconds * 1000);
    this.logger.warn({ rid: row.rid, stage, attempts, spent, error: reason }, 'registration stage failed');
    await this.move(tx, row, { status: spent ? 'REPROCESS_FAILED' : 'REPROCESS', attempts, lastError: reason, nextAttemptAt }, now);
    const transaction: StageTransaction = spent
      ? { statusCode: 'REPROCESS_FAILED', comment: `failed ${attempts} times; an admin may resume it: ${reason}` }
      : { statusCode: 'REPROCESS', comment: `runs again after ${this.settings.reprocessElapseSeconds} s: ${reason}` };
    await this.store.record(tx, row.rid, row.langCode, stage, [transaction], now);
  }

  /** An answer written in another component's transaction: false when another run moved the registration first. */
  async recordIn(write: () => Promise<void>): Promise<boolean> {
    try {
      await write();
      return true;
    } catch (error) {
      if (error instanceof Overtaken) return false;
      throw error;
    }
  }
}
