import type { Database, Subscription } from '../db/client.js';
import type { Logger } from '../log.js';
import type { Clock } from '../time.js';
import type { JobQueue } from './queue.js';
import { JOBS_CHANNEL, type RunnerHeartbeats } from './storage.js';

/** How often a runner says it is alive, and how long after its last word it counts as gone. */
export const HEARTBEAT_MS = 5_000;
export const RUNNER_SILENT_MS = 3 * HEARTBEAT_MS;

export interface AliveRunner {
  worker: string;
  role: string;
  instance: string;
  seenAt: Date;
}

/** The runners alive anywhere on this database (heartbeats within the last few seconds), from any process, a runner or not. */
export function runnersAlive(heartbeats: RunnerHeartbeats): Promise<AliveRunner[]> {
  const now = Date.now();
  return heartbeats.alive(new Date(now - RUNNER_SILENT_MS), new Date(now - 24 * 3_600_000));
}

export interface RunnerOptions {
  /** jobs run at once by this process */
  concurrency: number;
  /** how often due jobs are looked for without a wake-up (retries, leases that ended) */
  pollMs: number;
  /** how long done jobs are kept */
  retentionMs: number;
  /** what kind of process runs it, and its name (readiness and the operator see who runs jobs) */
  role?: string;
  instance?: string;
}

/**
 * Runs the jobs of every declared kind: claims due ones with a lease, keeps
 * the lease alive while a handler runs, and records the outcome only while
 * the lease is still its own. Any number of runners (instances, `npm run
 * worker`) share one database; a runner killed mid-job leaves its job to the
 * next claim after the lease ends.
 */
export class JobRunner {
  private readonly running = new Set<Promise<void>>();
  private timer: NodeJS.Timeout | undefined;
  private heartbeat: NodeJS.Timeout | undefined;
  private subscription: Subscription | undefined;
  private stopped = true;
  private polling: Promise<void> | undefined;
  private again = false;
  private lastPurge = 0;

  constructor(
    private readonly queue: JobQueue,
    private readonly database: Pick<Database, 'subscribe'>,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly options: RunnerOptions,
  ) {}

  private get heartbeats() {
    return this.queue.heartbeats;
  }

  async start(): Promise<void> {
    if (!this.stopped) return;
    this.stopped = false;
    await this.scheduleRecurring();
    this.queue.onEnqueued(() => this.wake());
    this.subscription = await this.database.subscribe(JOBS_CHANNEL, { message: () => this.wake(), up: () => this.wake(), down: () => undefined });
    this.timer = setInterval(() => this.wake(), this.options.pollMs).unref();
    await this.beat();
    this.heartbeat = setInterval(() => void this.beat(), HEARTBEAT_MS).unref();
    this.wake();
  }

  private runner() {
    return { worker: this.queue.executor.worker, role: this.options.role ?? 'platform', instance: this.options.instance ?? this.queue.executor.worker };
  }

  /** A missed beat (the database away a moment) is only logged: the next one, or readiness elsewhere, tells. Heartbeats are wall-clock time, whatever clock the jobs keep. */
  private beat(): Promise<void> {
    return this.heartbeats.beat(this.runner(), new Date()).catch((error: unknown) => this.logger.warn({ err: error }, 'job runner heartbeat failed'));
  }

  /** The runners alive anywhere on this database (heartbeats within the last few seconds). */
  alive(): Promise<AliveRunner[]> {
    return runnersAlive(this.heartbeats);
  }

  /** One row per recurring kind, created by whichever instance starts first. */
  private async scheduleRecurring(): Promise<void> {
    for (const kind of this.queue.kinds) {
      const definition = this.queue.definitionOf(kind)!;
      if (definition.everyMs) await this.queue.enqueue(kind as never, {} as never, { singletonKey: `recurring:${kind}` });
    }
  }

  /** Looks for due jobs now (again after the current look, if one is running). */
  wake(): void {
    if (this.stopped) return;
    if (this.polling) {
      this.again = true;
      return;
    }
    this.polling = this.poll()
      .catch((error: unknown) => this.logger.error({ err: error }, 'job poll failed'))
      .finally(() => {
        this.polling = undefined;
        if (this.again) {
          this.again = false;
          this.wake();
        }
      });
  }

  private async poll(): Promise<void> {
    const free = this.options.concurrency - this.running.size;
    if (free > 0 && this.queue.kinds.length) {
      const claimed = await this.queue.storage.claim(this.queue.kinds, this.queue.executor.worker, this.clock.now(), free);
      for (const job of claimed) this.track(this.queue.executor.execute(job));
      // A full batch may have more behind it.
      if (claimed.length === free) this.again = true;
    }
    const now = this.clock.now().getTime();
    if (now - this.lastPurge > 60_000) {
      this.lastPurge = now;
      await this.queue.storage.purgeDone(new Date(now - this.options.retentionMs));
    }
  }

  private track(run: Promise<void>): void {
    this.running.add(run);
    void run.finally(() => {
      this.running.delete(run);
      this.wake();
    });
  }

  /** Waits for idle (tests, and scripts that enqueue then exit): no job due and none running. */
  async drain(timeoutMs = 30_000): Promise<void> {
    const until = Date.now() + timeoutMs;
    while (Date.now() < until) {
      this.wake();
      await this.polling;
      if (this.running.size === 0) {
        const counts = await this.queue.storage.counts();
        if (counts.running === 0 && !(await this.queue.storage.claimable(this.queue.kinds, this.clock.now()))) return;
      }
      await Promise.race([Promise.all(this.running), new Promise((resolve) => setTimeout(resolve, 20))]);
    }
    throw new Error(`jobs still running or due after ${timeoutMs} ms`);
  }

  /** Stops claiming, and lets running jobs finish within `graceMs`; those still running then lose their lease to the next worker. */
  async stop(graceMs = 10_000): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    clearInterval(this.timer);
    clearInterval(this.heartbeat);
    // Long handlers that can leave their rest to a later run end now, while the rest of the stop goes on.
    this.queue.executor.beginStop();
    await this.subscription?.close();
    await this.polling;
    const settled = Promise.allSettled([...this.running]);
    const late = await Promise.race([settled.then(() => false), new Promise<boolean>((resolve) => setTimeout(() => resolve(true), graceMs).unref())]);
    if (late) {
      this.queue.executor.abortAll();
      this.logger.warn({ running: this.running.size }, 'jobs still running at shutdown: they run again after their lease');
    }
    await this.heartbeats.forget(this.queue.executor.worker).catch(() => undefined);
  }
}
