import type { PrismaClient } from '../../generated/prisma/client.js';
import type { Logger } from '../log.js';
import type { Clock } from '../time.js';
import { JOB_DEFAULTS, JobExecutor } from './execute.js';
import { currentTraceParent } from '../tracing.js';
import { JobStorage, RunnerHeartbeats, type NewJob } from './storage.js';
import type { EnqueueOptions, HeldJob, JobDefinition, JobDefinitions, JobKind, JobPayloads, Jobs, JobTx } from './types.js';

/**
 * The platform's job handlers by kind, and enqueueing. Components enqueue
 * through `deps.jobs`; the handlers are declared in the registry and known
 * before anything serves, so an enqueue of an unknown kind is a programming
 * mistake found at once.
 */
export class JobQueue implements Jobs {
  readonly storage: JobStorage;
  readonly executor: JobExecutor;
  readonly heartbeats: RunnerHeartbeats;
  private readonly definitions = new Map<string, JobDefinition<never>>();
  /** called after an enqueue outside a transaction: the runner of this process starts at once */
  private readonly wakers: (() => void)[] = [];

  constructor(
    private readonly prisma: PrismaClient,
    private readonly clock: Clock,
    logger: Logger,
  ) {
    this.storage = new JobStorage(prisma);
    this.heartbeats = new RunnerHeartbeats(prisma);
    this.executor = new JobExecutor(this.storage, (kind) => this.definitions.get(kind), clock, logger);
  }

  define(definitions: JobDefinitions): void {
    for (const [kind, definition] of Object.entries(definitions)) {
      if (this.definitions.has(kind)) throw new Error(`job kind ${kind} is declared twice`);
      if (definition) this.definitions.set(kind, definition);
    }
  }

  definitionOf(kind: string): JobDefinition<never> | undefined {
    return this.definitions.get(kind);
  }

  get kinds(): string[] {
    return [...this.definitions.keys()];
  }

  onEnqueued(wake: () => void): void {
    this.wakers.push(wake);
  }

  private newJob(kind: string, payload: unknown, options: EnqueueOptions): NewJob {
    const definition = this.definitions.get(kind);
    if (!definition) throw new Error(`no handler is declared for job kind ${kind}`);
    return {
      kind,
      payload,
      maxAttempts: definition.maxAttempts ?? JOB_DEFAULTS.maxAttempts,
      leaseMs: definition.leaseMs ?? JOB_DEFAULTS.leaseMs,
      runAt: options.runAt ?? this.clock.now(),
      singletonKey: options.singletonKey,
      traceParent: currentTraceParent(),
    };
  }

  async hold<K extends JobKind>(kind: K, payload: JobPayloads[K], options: { tx: JobTx }): Promise<HeldJob> {
    const claimed = await this.storage.insertHeld(options.tx, this.newJob(kind, payload, {}), this.executor.worker);
    return { run: () => this.executor.execute(claimed) };
  }

  async runDueNow(kind: JobKind): Promise<number> {
    const advanced = await this.storage.advance(kind, this.clock.now());
    if (advanced > 0) for (const wake of this.wakers) wake();
    return advanced;
  }

  /** Dead jobs queued again with their attempts reset; runners are woken as by an enqueue. The ids revived (the others were not dead). */
  async retryDead(ids: readonly string[]): Promise<string[]> {
    const revived = await this.storage.revive(ids, this.clock.now());
    if (revived.length) for (const wake of this.wakers) wake();
    return revived;
  }

  async enqueue<K extends JobKind>(kind: K, payload: JobPayloads[K], options: EnqueueOptions = {}): Promise<void> {
    await this.storage.insert(options.tx ?? this.prisma, this.newJob(kind, payload, options));
    // Inside a transaction the commit's NOTIFY wakes the runners; alone, this one starts now.
    if (!options.tx) for (const wake of this.wakers) wake();
  }
}
