import type { AbisRequest, Prisma, PrismaClient } from '../../../generated/prisma/client.js';
import type { PageQuery } from '../../../lib/graph/connection.js';
import type { JobTx } from '../../../lib/jobs/types.js';

export type AbisRequestRow = AbisRequest;
export type NewAbisRequest = Pick<
  AbisRequestRow,
  'id' | 'abisName' | 'operation' | 'rid' | 'batchId' | 'referenceId' | 'referenceUrl' | 'status' | 'requestedBy' | 'createdAt'
> & { gallery?: string[] | null };

/** What an operator's list of requests filters on. */
export interface AbisRequestFilter {
  status?: string | null;
  operation?: string | null;
  abisName?: string | null;
  registrationId?: string | null;
  /** written before this instant: the requests older than an age */
  createdBefore?: Date | null;
  createdAfter?: Date | null;
}

/** What an ABIS has outstanding: requests not yet sent and sent without a reply. */
export interface OutstandingCount {
  abisName: string;
  status: string;
  count: number;
  oldest: Date | null;
}

/** The answer a reply brings to its request. */
export interface ReplyRecord {
  status: string;
  returnValue: string | null;
  failureReason: string | null;
  candidates?: string[];
  result?: string | null;
}

const whereOf = (filter: AbisRequestFilter): Prisma.AbisRequestWhereInput => ({
  ...(filter.status ? { status: filter.status } : {}),
  ...(filter.operation ? { operation: filter.operation } : {}),
  ...(filter.abisName ? { abisName: filter.abisName } : {}),
  ...(filter.registrationId ? { rid: filter.registrationId } : {}),
  ...(filter.createdBefore || filter.createdAfter
    ? { createdAt: { ...(filter.createdBefore ? { lt: filter.createdBefore } : {}), ...(filter.createdAfter ? { gte: filter.createdAfter } : {}) } }
    : {}),
});

/**
 * The channel on which an answered request's id is sent (PostgreSQL NOTIFY), so that an operator
 * waiting on any instance hears of a reply that another instance consumed.
 */
export const ABIS_ANSWERS_CHANNEL = 'abis_request_answered';

/** The ABIS requests' table (abis_request): the only code that touches it. */
export class AbisRequestStorage {
  constructor(private readonly prisma: PrismaClient) {}

  inTransaction<T>(work: (tx: JobTx) => Promise<T>): Promise<T> {
    return this.prisma.$transaction(work);
  }

  async create(tx: JobTx, rows: readonly NewAbisRequest[]): Promise<void> {
    await tx.abisRequest.createMany({ data: rows.map(({ gallery, ...row }) => ({ ...row, ...(gallery?.length ? { gallery } : {}) })) });
  }

  byId(id: string): Promise<AbisRequestRow | null> {
    return this.prisma.abisRequest.findUnique({ where: { id } });
  }

  byIds(ids: readonly string[]): Promise<AbisRequestRow[]> {
    return this.prisma.abisRequest.findMany({ where: { id: { in: [...ids] } }, orderBy: [{ abisName: 'asc' }, { id: 'asc' }] });
  }

  /** Marks an unsent request SENT: false when it was sent already (a job run twice), or answered already (a quick ABIS), whose send time is kept alone. */
  async markSent(tx: JobTx, id: string, now: Date): Promise<boolean> {
    if ((await tx.abisRequest.updateMany({ where: { id, status: 'IN_PROGRESS' }, data: { status: 'SENT', sentAt: now } })).count === 1) return true;
    await tx.abisRequest.updateMany({ where: { id, sentAt: null }, data: { sentAt: now } });
    return false;
  }

  /**
   * Records the first reply of a request: false for a second one (a duplicate, applied once). The
   * reply may come before the sender has recorded the broker's receipt (IN_PROGRESS): it is still the first.
   */
  async answer(tx: JobTx, id: string, reply: ReplyRecord, now: Date): Promise<boolean> {
    const data: Prisma.AbisRequestUpdateManyMutationInput = {
      status: reply.status,
      returnValue: reply.returnValue,
      failureReason: reply.failureReason,
      answeredAt: now,
      ...(reply.candidates ? { candidates: reply.candidates } : {}),
      ...(reply.result !== undefined ? { result: reply.result } : {}),
    };
    return (await tx.abisRequest.updateMany({ where: { id, status: { in: ['SENT', 'IN_PROGRESS'] } }, data })).count === 1;
  }

  /** Tells every instance that this request was answered, once `tx` commits (nothing is sent if it rolls back). */
  async announceAnswer(tx: JobTx, id: string): Promise<void> {
    await tx.$queryRaw`SELECT pg_notify(${ABIS_ANSWERS_CHANNEL}, ${id})::text AS sent`;
  }

  /** The requests of one de-duplication attempt, as the caller's transaction sees them. */
  batch(tx: JobTx, batchId: string): Promise<AbisRequestRow[]> {
    return tx.abisRequest.findMany({ where: { batchId } });
  }

  /** Requests of these operations sent before `before` and never answered. */
  unanswered(operations: readonly string[], before: Date, limit: number): Promise<AbisRequestRow[]> {
    return this.prisma.abisRequest.findMany({
      where: { status: 'SENT', sentAt: { lt: before }, operation: { in: [...operations] } },
      orderBy: { sentAt: 'asc' },
      take: limit,
    });
  }

  /** FAILED without a reply: a request sent and never answered, or (`from` IN_PROGRESS) one too late to send. */
  async fail(tx: JobTx, id: string, reason: string, now: Date, from: 'SENT' | 'IN_PROGRESS' = 'SENT'): Promise<boolean> {
    return (await tx.abisRequest.updateMany({ where: { id, status: from }, data: { status: 'FAILED', failureReason: reason, answeredAt: now } })).count === 1;
  }

  byRids(rids: readonly string[]): Promise<AbisRequestRow[]> {
    return rids.length
      ? this.prisma.abisRequest.findMany({ where: { rid: { in: [...rids] } }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] })
      : Promise.resolve([]);
  }

  /** The answered identifies of several registrations, newest first (their latest attempt's candidates). */
  answeredIdentifies(rids: readonly string[]): Promise<AbisRequestRow[]> {
    return rids.length
      ? this.prisma.abisRequest.findMany({
          where: { rid: { in: [...rids] }, operation: 'IDENTIFY', status: 'PROCESSED' },
          orderBy: [{ answeredAt: 'desc' }, { id: 'asc' }],
        })
      : Promise.resolve([]);
  }

  /** The newest requests of one operation to each ABIS named: `perAbis` of each (one indexed query per ABIS, at most 16). */
  async latest(abisNames: readonly string[], operation: string, perAbis: number): Promise<AbisRequestRow[]> {
    const rows = await Promise.all(
      abisNames.map((abisName) => this.prisma.abisRequest.findMany({ where: { abisName, operation }, orderBy: { createdAt: 'desc' }, take: perAbis })),
    );
    return rows.flat();
  }

  /** Per ABIS and status, the requests waiting to be sent or answered, and the oldest of them. */
  async outstanding(): Promise<OutstandingCount[]> {
    const groups = await this.prisma.abisRequest.groupBy({
      by: ['abisName', 'status'],
      where: { status: { in: ['IN_PROGRESS', 'SENT'] } },
      _count: { _all: true },
      _min: { createdAt: true },
    });
    return groups.map((group) => ({ abisName: group.abisName, status: group.status, count: group._count._all, oldest: group._min.createdAt }));
  }

  /** One page of requests, newest first. */
  page(filter: AbisRequestFilter, page: PageQuery): Promise<AbisRequestRow[]> {
    return this.prisma.abisRequest.findMany({
      where: whereOf(filter),
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: page.take,
      ...(page.after ? { cursor: { id: page.after }, skip: page.skip ?? 1 } : {}),
    });
  }

  count(filter: AbisRequestFilter): Promise<number> {
    return this.prisma.abisRequest.count({ where: whereOf(filter) });
  }

  /** Drops answered questions (pings, counts) written before `before`: they are kept for the liveness view only. */
  async purgeQuestions(operations: readonly string[], before: Date): Promise<number> {
    return (
      await this.prisma.abisRequest.deleteMany({ where: { operation: { in: [...operations] }, createdAt: { lt: before }, status: { notIn: ['IN_PROGRESS'] } } })
    ).count;
  }
}
