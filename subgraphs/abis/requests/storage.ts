import type { AbisRequest, Prisma, PrismaClient } from '../../../generated/prisma/client.js';
import type { JobTx } from '../../../lib/jobs/types.js';

export type AbisRequestRow = AbisRequest;
export type NewAbisRequest = Omit<AbisRequestRow, 'returnValue' | 'failureReason' | 'candidates' | 'sentAt' | 'answeredAt'>;

/** The ABIS requests' table (abis_request): the only code that touches it. */
export class AbisRequestStorage {
  constructor(private readonly prisma: PrismaClient) {}

  inTransaction<T>(work: (tx: JobTx) => Promise<T>): Promise<T> {
    return this.prisma.$transaction(work);
  }

  async create(tx: JobTx, rows: readonly NewAbisRequest[]): Promise<void> {
    await tx.abisRequest.createMany({ data: [...rows] });
  }

  byId(id: string): Promise<AbisRequestRow | null> {
    return this.prisma.abisRequest.findUnique({ where: { id } });
  }

  /** Marks an unsent request SENT: false when it was sent already (a job run twice). */
  async markSent(tx: JobTx, id: string, now: Date): Promise<boolean> {
    return (await tx.abisRequest.updateMany({ where: { id, status: 'IN_PROGRESS' }, data: { status: 'SENT', sentAt: now } })).count === 1;
  }

  /** Records the first reply of a SENT request: false for a second one (a duplicate, applied once). */
  async answer(
    tx: JobTx,
    id: string,
    reply: { status: string; returnValue: string | null; failureReason: string | null; candidates?: string[] },
    now: Date,
  ): Promise<boolean> {
    const data: Prisma.AbisRequestUpdateManyMutationInput = {
      status: reply.status,
      returnValue: reply.returnValue,
      failureReason: reply.failureReason,
      answeredAt: now,
      ...(reply.candidates ? { candidates: reply.candidates } : {}),
    };
    return (await tx.abisRequest.updateMany({ where: { id, status: 'SENT' }, data })).count === 1;
  }

  /** The requests of one de-duplication attempt, as the caller's transaction sees them. */
  batch(tx: JobTx, batchId: string): Promise<AbisRequestRow[]> {
    return tx.abisRequest.findMany({ where: { batchId } });
  }

  /** Requests sent before `before` and never answered. */
  unanswered(before: Date, limit: number): Promise<AbisRequestRow[]> {
    return this.prisma.abisRequest.findMany({ where: { status: 'SENT', sentAt: { lt: before } }, orderBy: { sentAt: 'asc' }, take: limit });
  }

  async fail(tx: JobTx, id: string, reason: string, now: Date): Promise<boolean> {
    return (await tx.abisRequest.updateMany({ where: { id, status: 'SENT' }, data: { status: 'FAILED', failureReason: reason, answeredAt: now } })).count === 1;
  }

  byRids(rids: readonly string[]): Promise<AbisRequestRow[]> {
    return rids.length
      ? this.prisma.abisRequest.findMany({ where: { rid: { in: [...rids] } }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] })
      : Promise.resolve([]);
  }
}
