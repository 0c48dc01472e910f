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
}

export interface ClaimedJob {
  id: string;
  kind: string;
  payload: unknown;
  attempts: number;
  maxAttempts: number;
  leaseMs: number;
}

/** A claim as the fences of later writes see it: the job, the worker, and which attempt. */
export interface Claim {
  id: string;
  worker: string;
  attempts: number;
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
      },
      select: { id: true, kind: true, payload: true, attempts: true, maxAttempts: true, leaseMs: true },
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
      RETURNING id, kind, payload, attempts, "maxAttempts", "leaseMs"`;
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

  async counts(): Promise<JobCounts> {
    const rows = await this.prisma.platformJob.groupBy({ by: ['state'], where: { state: { in: ['QUEUED', 'RUNNING', 'DEAD'] } }, _count: { _all: true } });
    const of = (state: string) => rows.find((row) => row.state === state)?._count._all ?? 0;
    return { queued: of('QUEUED'), running: of('RUNNING'), dead: of('DEAD') };
  }
}

const fence = (claim: Claim) => ({ id: claim.id, lockedBy: claim.worker, attempts: claim.attempts, state: 'RUNNING' });
