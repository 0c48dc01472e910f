import type { Prisma } from '../../generated/prisma/client.js';

/** A transaction (or the client itself) in which a job is enqueued: the job exists only if it commits. */
export type JobTx = Prisma.TransactionClient;

/**
 * The payload of each job kind, by kind; each component adds its own
 * (declaration merging beside its job handlers), so an enqueue is typed.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by the components
export interface JobPayloads {}

export type JobKind = Extract<keyof JobPayloads, string>;

/** What a running job knows of itself. */
export interface JobContext {
  id: string;
  kind: string;
  /** 1 on the first run */
  attempt: number;
  maxAttempts: number;
  /** when the job runs again if this attempt fails; null on the last attempt */
  retryAt: Date | null;
  /** aborted when this worker lost the lease (another may run the job now) or is stopping */
  signal: AbortSignal;
  /**
   * aborted as soon as this process begins to stop: a long handler whose
   * rest can wait for a later run (a pool fill) ends early instead of holding
   * the shutdown for its grace time
   */
  stopping: AbortSignal;
  /**
   * Marks the job done inside the handler's own transaction, so that its
   * effects, the jobs it enqueues and its completion commit together (a
   * crash before the commit leaves the job to run again, with nothing of it
   * seen). Throws, rolling the transaction back, when the lease was lost.
   */
  completeIn(tx: JobTx): Promise<void>;
}

/** How one kind of job is run. A handler may run more than once (a crash after its work): it is written so that twice has one effect. */
export interface JobDefinition<P = unknown> {
  run(payload: P, context: JobContext): Promise<void>;
  /** runs before the job is DEAD; default 5 */
  maxAttempts?: number;
  /** the first retry's delay, doubled per attempt up to `maxBackoffMs`; default 1000 */
  backoffMs?: number;
  maxBackoffMs?: number;
  /** how long a claim holds the job between heartbeats; default 30000 */
  leaseMs?: number;
  /** a recurring job: one row per platform, run again this long after each run */
  everyMs?: number;
  /** called once the job is DEAD (its attempts spent), with the last reason: a handler's own record of the failure */
  onDead?(payload: P, reason: string): Promise<void>;
}

/** The job handlers of a component, by kind, built over its services and settings. */
export type JobDefinitions = { [K in JobKind]?: JobDefinition<JobPayloads[K]> } & Record<string, JobDefinition<never>>;

export interface EnqueueOptions {
  /** the transaction of the change that causes the job; without it the job is enqueued on its own */
  tx?: JobTx;
  /** not before this instant */
  runAt?: Date;
  /** at most one queued or running job with this key: a second enqueue is dropped */
  singletonKey?: string;
}

/** A job enqueued already leased to this process: `run` it once its transaction has committed. */
export interface HeldJob {
  run(): Promise<void>;
}

/** What components see of the jobs: enqueue, in their own transaction. */
export interface Jobs {
  enqueue<K extends JobKind>(kind: K, payload: JobPayloads[K], options?: EnqueueOptions): Promise<void>;
  /**
   * Enqueues the job leased to this process, to be run at once by the caller
   * after its transaction commits (a first attempt inside the request); if
   * the process dies before, any worker runs it after the lease. Retries go
   * to the runners like any job's.
   */
  hold<K extends JobKind>(kind: K, payload: JobPayloads[K], options: { tx: JobTx }): Promise<HeldJob>;
  /**
   * The queued jobs of a kind waiting out a back-off run now: what they
   * waited for (a broker, a service) is back. Returns how many.
   */
  runDueNow(kind: JobKind): Promise<number>;
}
