import type { Logger } from '../../../lib/log.js';
import { annotateActiveSpan } from '../../../lib/tracing.js';
import { StageRejection, type JobStage, type StageOutcome } from './stages.js';

/**
 * How a stage run ended: moved on, waiting for an answer, ended (processed,
 * rejected, failed), a fault of the platform's (reprocessed later),
 * overtaken by another run, or an error that left the job to retry.
 */
export type StageRunEnd = 'success' | 'waiting' | 'processed' | 'rejected' | 'failed' | 'fault' | 'overtaken' | 'error';

export interface StageRun {
  rid: string;
  stage: JobStage;
  outcome: StageRunEnd;
  ms: number;
}

export type StageRunObserver = (run: StageRun) => void;

/** The end of a run whose outcome (or failure) was recorded. */
export function endOf(outcome: StageOutcome | undefined, failure: unknown): StageRunEnd {
  if (outcome) return outcome.kind === 'next' ? 'success' : outcome.kind === 'wait' ? 'waiting' : outcome.status === 'PROCESSED' ? 'processed' : 'rejected';
  if (failure instanceof StageRejection) return failure.status === 'FAILED' ? 'failed' : 'rejected';
  return 'fault';
}

/** Each stage run: one info line (the RID and the stage, never a name or a UIN), its job's span annotated, and the observers told (metrics). */
export class StageRuns {
  private readonly observers = new Set<StageRunObserver>();

  constructor(private readonly logger: Logger) {}

  observe(observer: StageRunObserver): () => void {
    this.observers.add(observer);
    return () => void this.observers.delete(observer);
  }

  ran(run: StageRun): void {
    this.logger.info({ rid: run.rid, stage: run.stage, outcome: run.outcome, ms: Math.round(run.ms * 10) / 10 }, 'registration stage ran');
    annotateActiveSpan({ 'platform.registration.rid': run.rid, 'platform.registration.stage': run.stage, 'platform.registration.outcome': run.outcome });
    for (const observer of this.observers) {
      try {
        observer(run);
      } catch (error) {
        // An observer's failure is not the stage's: the run stands as recorded.
        this.logger.warn({ err: error, stage: run.stage }, 'a stage run observer failed');
      }
    }
  }
}
