import type { PrismaClient } from '../../generated/prisma/client.js';
import type { JobTx } from './types.js';

/** Woken on commit of an enqueue (NOTIFY is transactional): every runner listening starts at once instead of at its next poll. */
export const JOBS_CHANNEL = 'platform_jobs';

export interface NewJob {
  kind: string;
  payload: unknown;
  maxAttempts: number;
  leaseMs: number;
  runAt: Date;
  singletonKey?: string;
  /** the enqueuing request's W3C traceparent, when traces are on */
  traceParent?: string;
}

export interface ClaimedJob {
  id: string;
  kind: string;
  payload: unknown;
  attempts: number;
  maxAttempts: number;
  leaseMs: number;
  traceParent: string | null;
}

/** A claim as the fences of later writes see it: the job, the worker, and which attempt. */
export interface Claim {
  id: string;
  worker: string;
  attempts: number;
}

/** A dead job as an operator reads it. */
export interface DeadJob {
  id: string;
  kind: string;
  attempts: number;
  maxAttempts: number;
  /** the last failure's reason */
  lastError: string | null;
  /** when it died */
  finishedAt: Date | null;
  createdAt: Date;
}

export interface JobCounts {
  queued: number;
  running: number;
  dead: number;
}

/** The job table (platform_job): the only code that touches it. */
export class JobStorage {
  constructor(private readonly prisma: PrismaClient) {}

  /** A new job in `tx`, announced on commit; a singleton already queued or running keeps its row and this one is dropped. */
  async insert(tx: JobTx, job: NewJob): Promise<void> {
    await tx.platformJob.createMany({
      data: [
        {
          kind: job.kind,
          payload: job.payload as object,
          maxAttempts: job.maxAttempts,
          leaseMs: job.leaseMs,
          runAt: job.runAt,
          singletonKey: job.singletonKey ?? null,
          traceParent: job.traceParent ?? null,
        },
      ],
      skipDuplicates: true,
    });
    await tx.$queryRaw`SELECT pg_notify(${JOBS_CHANNEL}, ${job.kind})::text AS sent`;
  }

  /** A new job in `tx` already running under `worker`'s lease (its first attempt is made by the process that enqueued it). */
  async insertHeld(tx: JobTx, job: NewJob, worker: string): Promise<ClaimedJob> {
    const leaseUntil = new Date(job.runAt.getTime() + job.leaseMs);
    const row = await tx.platformJob.create({
      data: {
        kind: job.kind,
        payload: job.payload as object,
        maxAttempts: job.maxAttempts,
        leaseMs: job.leaseMs,
        runAt: job.runAt,
        state: 'RUNNING',
        attempts: 1,
        lockedBy: worker,
        leaseUntil,
        traceParent: job.traceParent ?? null,
      },
      select: { id: true, kind: true, payload: true, attempts: true, maxAttempts: true, leaseMs: true, traceParent: true },
    });
    return row;
  }

  /**
   * Up to `limit` jobs of the kinds that are due (queued and past their
   * time, or running with a lease that ended: their worker died), leased to
   * `worker`. Racing workers skip each other's rows.
   */
  claim(kinds: readonly string[], worker: string, now: Date, limit: number): Promise<ClaimedJob[]> {
    return this.prisma.$queryRaw<ClaimedJob[]>`
      UPDATE platform_job SET state = 'RUNNING', attempts = attempts + 1, "lockedBy" = ${worker},
        "leaseUntil" = ${now}::timestamp(3) + "leaseMs" * interval '1 millisecond'
      WHERE id IN (
        SELECT id FROM platform_job
        WHERE kind = ANY(${[...kinds]}::text[])
          AND ((state = 'QUEUED' AND "runAt" <= ${now}::timestamp(3)) OR (state = 'RUNNING' AND "leaseUntil" < ${now}::timestamp(3)))
        ORDER BY "runAt" LIMIT ${limit} FOR UPDATE SKIP LOCKED)
      RETURNING id, kind, payload, attempts, "maxAttempts", "leaseMs", "traceParent"`;
  }

  /** Whether a job of the kinds is due now (queued, or running on a lease that ended). */
  async claimable(kinds: readonly string[], now: Date): Promise<boolean> {
    const due = await this.prisma.platformJob.findFirst({
      where: {
        kind: { in: [...kinds] },
        OR: [
          { state: 'QUEUED', runAt: { lte: now } },
          { state: 'RUNNING', leaseUntil: { lt: now } },
        ],
      },
      select: { id: true },
    });
    return due !== null;
  }

  /** Extends the lease; false when it is no longer this claim's (another worker took the job over). */
  async heartbeat(claim: Claim, until: Date): Promise<boolean> {
    const { count } = await this.prisma.platformJob.updateMany({ where: { ...fence(claim) }, data: { leaseUntil: until } });
    return count === 1;
  }

  /** Done (in the handler's transaction, or alone); false when the lease was lost. */
  async complete(claim: Claim, now: Date, tx: JobTx = this.prisma): Promise<boolean> {
    const { count } = await tx.platformJob.updateMany({
      where: fence(claim),
      data: { state: 'DONE', finishedAt: now, leaseUntil: null, lockedBy: null, singletonKey: null, lastError: null },
    });
    return count === 1;
  }

  /** A recurring job queued again for its next run, keeping its row (and its singleton key). */
  async reschedule(claim: Claim, runAt: Date, lastError: string | null): Promise<boolean> {
    const { count } = await this.prisma.platformJob.updateMany({
      where: fence(claim),
      data: { state: 'QUEUED', attempts: 0, runAt, leaseUntil: null, lockedBy: null, lastError },
    });
    return count === 1;
  }

  /** Queued jobs of a kind due later (a back-off) become due now. */
  async advance(kind: string, now: Date): Promise<number> {
    const { count } = await this.prisma.platformJob.updateMany({ where: { kind, state: 'QUEUED', runAt: { gt: now } }, data: { runAt: now } });
    return count;
  }

  /** A failed attempt: queued again after the back-off. */
  async retry(claim: Claim, runAt: Date, lastError: string): Promise<boolean> {
    const { count } = await this.prisma.platformJob.updateMany({
      where: fence(claim),
      data: { state: 'QUEUED', runAt, leaseUntil: null, lockedBy: null, lastError },
    });
    return count === 1;
  }

  /** The attempts are spent: DEAD, with the reason, for an operator to read. */
  async bury(claim: Claim, now: Date, lastError: string): Promise<boolean> {
    const { count } = await this.prisma.platformJob.updateMany({
      where: fence(claim),
      data: { state: 'DEAD', finishedAt: now, leaseUntil: null, lockedBy: null, singletonKey: null, lastError },
    });
    return count === 1;
  }

  /** Done jobs finished before `before` are forgotten (dead ones stay). */
  async purgeDone(before: Date): Promise<number> {
    const { count } = await this.prisma.platformJob.deleteMany({ where: { state: 'DONE', finishedAt: { lt: before } } });
    return count;
  }

  /** Dead jobs (of a kind), the latest to die first. */
  dead(options: { kind?: string; take: number }): Promise<DeadJob[]> {
    return this.prisma.platformJob.findMany({
      where: { state: 'DEAD', ...(options.kind ? { kind: options.kind } : {}) },
      orderBy: [{ finishedAt: 'desc' }, { id: 'asc' }],
      take: options.take,
      select: { id: true, kind: true, attempts: true, maxAttempts: true, lastError: true, finishedAt: true, createdAt: true },
    });
  }

  /** The ids of the dead jobs (of a kind), or of those among `ids` that are dead. */
  async deadIds(filter: { kind?: string; ids?: readonly string[] }): Promise<string[]> {
    const rows = await this.prisma.platformJob.findMany({
      where: { state: 'DEAD', ...(filter.kind ? { kind: filter.kind } : {}), ...(filter.ids ? { id: { in: [...filter.ids] } } : {}) },
      orderBy: { finishedAt: 'asc' },
      select: { id: true },
    });
    return rows.map((row) => row.id);
  }

  /** Dead jobs queued again as new ones (attempts reset), announced on commit as an enqueue is; the ids revived. */
  revive(ids: readonly string[], now: Date): Promise<string[]> {
    return this.prisma.$transaction(async (tx) => {
      const rows = await tx.platformJob.updateManyAndReturn({
        where: { id: { in: [...ids] }, state: 'DEAD' },
        data: { state: 'QUEUED', attempts: 0, runAt: now, finishedAt: null, leaseUntil: null, lockedBy: null },
        select: { id: true, kind: true },
      });
      for (const kind of new Set(rows.map((row) => row.kind))) await tx.$queryRaw`SELECT pg_notify(${JOBS_CHANNEL}, ${kind})::text AS sent`;
      return rows.map((row) => row.id);
    });
  }

  /** Dead jobs forgotten; the ids removed (a job that is not dead stays). */
  async dropDead(ids: readonly string[]): Promise<string[]> {
    return this.prisma.$transaction(async (tx) => {
      const dead = await tx.platformJob.findMany({ where: { id: { in: [...ids] }, state: 'DEAD' }, select: { id: true } });
      await tx.platformJob.deleteMany({ where: { id: { in: dead.map((row) => row.id) }, state: 'DEAD' } });
      return dead.map((row) => row.id);
    });
  }

  async counts(): Promise<JobCounts> {
    const rows = await this.prisma.platformJob.groupBy({ by: ['state'], where: { state: { in: ['QUEUED', 'RUNNING', 'DEAD'] } }, _count: { _all: true } });
    const of = (state: string) => rows.find((row) => row.state === state)?._count._all ?? 0;
    return { queued: of('QUEUED'), running: of('RUNNING'), dead: of('DEAD') };
  }

  /** Per kind (each of `kinds`, and any other found): queued, running and dead jobs, and since when the oldest due queued one is due (metrics). */
  async countsByKind(kinds: readonly string[], now: Date): Promise<(JobCounts & { kind: string; oldestDueAt: Date | null })[]> {
    const [states, due] = await Promise.all([
      this.prisma.platformJob.groupBy({ by: ['kind', 'state'], where: { state: { in: ['QUEUED', 'RUNNING', 'DEAD'] } }, _count: { _all: true } }),
      this.prisma.platformJob.groupBy({ by: ['kind'], where: { state: 'QUEUED', runAt: { lte: now } }, _min: { runAt: true } }),
    ]);
    const all = new Set([...kinds, ...states.map((row) => row.kind)]);
    const count = (kind: string, state: string) => states.find((row) => row.kind === kind && row.state === state)?._count._all ?? 0;
    return [...all].map((kind) => ({
      kind,
      queued: count(kind, 'QUEUED'),
      running: count(kind, 'RUNNING'),
      dead: count(kind, 'DEAD'),
      oldestDueAt: due.find((row) => row.kind === kind)?._min.runAt ?? null,
    }));
  }
}

const fence = (claim: Claim) => ({ id: claim.id, lockedBy: claim.worker, attempts: claim.attempts, state: 'RUNNING' });

/** Job runners' heartbeats: who runs jobs, seen when. */
export class RunnerHeartbeats {
  constructor(private readonly prisma: PrismaClient) {}

  async beat(runner: { worker: string; role: string; instance: string }, now: Date): Promise<void> {
    await this.prisma.platformJobRunner.upsert({ where: { worker: runner.worker }, create: { ...runner, seenAt: now }, update: { seenAt: now } });
  }

  async forget(worker: string): Promise<void> {
    await this.prisma.platformJobRunner.deleteMany({ where: { worker } });
  }

  /** Runners seen since the instant; those silent long before it (killed without a stop) are removed on the way. */
  async alive(since: Date, forgetBefore: Date): Promise<{ worker: string; role: string; instance: string; seenAt: Date }[]> {
    await this.prisma.platformJobRunner.deleteMany({ where: { seenAt: { lt: forgetBefore } } });
    return this.prisma.platformJobRunner.findMany({ where: { seenAt: { gte: since } }, orderBy: { startedAt: 'asc' } });
  }
}
