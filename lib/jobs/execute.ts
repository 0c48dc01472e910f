import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Logger } from '../log.js';
import { inSpan } from '../tracing.js';
import type { Clock } from '../time.js';
import type { Claim, ClaimedJob, JobStorage } from './storage.js';
import type { JobContext, JobDefinition } from './types.js';

export const JOB_DEFAULTS = { maxAttempts: 5, backoffMs: 1_000, maxBackoffMs: 3_600_000, leaseMs: 30_000 } as const;

/** A failure's reason as it is stored and logged: the message only, bounded (handlers throw reasons without personal data). */
const reasonOf = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 1_000);

/** The delay before the attempt after `attempt`: the definition's back-off, doubled per attempt, bounded. */
export const backoffAfter = (definition: JobDefinition<never>, attempt: number) =>
  Math.min((definition.backoffMs ?? JOB_DEFAULTS.backoffMs) * 2 ** (attempt - 1), definition.maxBackoffMs ?? JOB_DEFAULTS.maxBackoffMs);

/**
 * Runs one claimed job: keeps its lease alive while the handler works, and
 * records the outcome (done, queued again after the back-off, or dead) only
 * while the lease is still this worker's.
 */
export class JobExecutor {
  /** this process as a lease holder: host, process and a random part */
  readonly worker = `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  private readonly controllers = new Set<AbortController>();
  private readonly stopper = new AbortController();

  constructor(
    private readonly storage: JobStorage,
    private readonly definitionOf: (kind: string) => JobDefinition<never> | undefined,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  async execute(job: ClaimedJob): Promise<void> {
    const definition = this.definitionOf(job.kind);
    const claim: Claim = { id: job.id, worker: this.worker, attempts: job.attempts };
    const log = this.logger.child({ job: job.id, kind: job.kind, attempt: job.attempts });
    if (!definition) return void log.error('no handler for this job kind in this process');
    const controller = new AbortController();
    this.controllers.add(controller);
    let completedInTx = false;
    const context: JobContext = {
      id: job.id,
      kind: job.kind,
      attempt: job.attempts,
      maxAttempts: job.maxAttempts,
      retryAt: job.attempts < job.maxAttempts ? new Date(this.clock.now().getTime() + backoffAfter(definition, job.attempts)) : null,
      signal: controller.signal,
      stopping: this.stopper.signal,
      completeIn: async (tx) => {
        if (!(await this.storage.complete(claim, this.clock.now(), tx))) throw new Error('the job lease was lost: its work is rolled back');
        completedInTx = true;
      },
    };
    const heartbeat = setInterval(
      () => {
        void this.storage.heartbeat(claim, new Date(this.clock.now().getTime() + job.leaseMs)).then(
          (held) => held || controller.abort(new Error('lease lost')),
          (error: unknown) => log.warn({ err: error }, 'job heartbeat failed'),
        );
      },
      Math.max(job.leaseMs / 3, 50),
    ).unref();
    try {
      let failure: string | undefined;
      try {
        // A recurring job is the platform's own clock, not part of a request: only the others are traced.
        const run = () => definition.run(job.payload as never, context);
        if (definition.everyMs) await run();
        else await inSpan(`job ${job.kind}`, { 'platform.job.kind': job.kind, 'platform.job.attempt': job.attempts }, run, job.traceParent);
      } catch (error) {
        failure = reasonOf(error);
      }
      if (failure === undefined) await this.finish(definition, claim, completedInTx, null);
      else await this.fail(definition, job, claim, failure, log);
    } catch (error) {
      // The outcome could not be written (the database went away): the lease ends and the job runs again.
      log.warn({ err: error }, 'could not record the outcome of a job: it runs again after its lease');
    } finally {
      clearInterval(heartbeat);
      this.controllers.delete(controller);
    }
  }

  private async finish(definition: JobDefinition<never>, claim: Claim, completedInTx: boolean, lastError: string | null): Promise<void> {
    if (definition.everyMs) await this.storage.reschedule(claim, new Date(this.clock.now().getTime() + definition.everyMs), lastError);
    else if (!completedInTx) await this.storage.complete(claim, this.clock.now());
  }

  private async fail(definition: JobDefinition<never>, job: ClaimedJob, claim: Claim, reason: string, log: Logger): Promise<void> {
    if (definition.everyMs) {
      log.warn({ reason }, 'recurring job failed; it runs again at its next time');
      return this.finish(definition, claim, false, reason);
    }
    if (job.attempts < job.maxAttempts) {
      const delay = backoffAfter(definition, job.attempts);
      log.warn({ reason, retryInMs: delay }, 'job failed; retrying');
      await this.storage.retry(claim, new Date(this.clock.now().getTime() + delay), reason);
      return;
    }
    log.error({ reason }, 'job failed for the last time: dead');
    if (await this.storage.bury(claim, this.clock.now(), reason)) await definition.onDead?.(job.payload as never, reason);
  }

  /** Tells long handlers that can end early (and leave the rest to a later run) that the process is stopping. */
  beginStop(): void {
    this.stopper.abort(new Error('worker stopping'));
  }

  /** Tells every running handler to stop (shutdown after the grace time): their jobs run again after the lease. */
  abortAll(): void {
    for (const controller of this.controllers) controller.abort(new Error('worker stopping'));
  }
}
