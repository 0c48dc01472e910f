import { randomUUID } from 'node:crypto';
import type { Prisma, PrismaClient, Registration } from '../../../generated/prisma/client.js';
import { connection, pageArgs, type Connection, type PageArgs } from '../../../lib/graph/connection.js';
import type { JobTx } from '../../../lib/jobs/types.js';
import { ACTIVE_STATUSES, type Candidate, type StageTransaction, type TransactionType } from './stages.js';

export type PipelineTx = JobTx;

/** What a stage changes on its registration when it moves it on. */
export interface RegistrationChange {
  status: string;
  stage?: string | null;
  attempts?: number;
  lastError?: string | null;
  nextAttemptAt?: Date | null;
  bioRefId?: string;
  packetKey?: string;
  receivedAt?: Date;
  receivedBy?: string;
}

/** Which registrations the stuck view shows. */
export interface StuckQuery {
  /** no progress since before this instant (PACKET_RECEIVED or PROCESSING, not waiting for an adjudicator) */
  idleBefore: Date;
  stage?: string | null;
}

/**
 * Text from a packet (a field name in a refusal) as PostgreSQL keeps it:
 * no NUL, which its text columns refuse, nor other control characters.
 */
// eslint-disable-next-line no-control-regex -- the control characters are what is removed
const storable = (text: string): string => text.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, '\ufffd');

/** The stuck rows: those that failed, wait to be reprocessed, or made no progress for too long. */
function stuckWhere(query: StuckQuery): Prisma.RegistrationWhereInput {
  return {
    ...(query.stage ? { stage: query.stage } : {}),
    OR: [
      { status: { in: ['REPROCESS', 'REPROCESS_FAILED', 'FAILED'] } },
      { status: { in: ['PACKET_RECEIVED', 'PROCESSING'] }, stage: { not: 'MANUAL_ADJUDICATION' }, progressAt: { lt: query.idleBefore } },
    ],
  };
}

/** The pipeline's writes to the registration processor's tables: one registration moved on with its transactions, in the caller's transaction. */
export class PipelineStorage {
  constructor(private readonly prisma: PrismaClient) {}

  byRid(rid: string): Promise<Registration | null> {
    return this.prisma.registration.findUnique({ where: { rid } });
  }

  /** A registration as the caller's transaction sees it. */
  byRidIn(tx: PipelineTx, rid: string): Promise<Registration | null> {
    return tx.registration.findUnique({ where: { rid } });
  }

  byBioRefId(bioRefId: string): Promise<Registration | null> {
    return this.prisma.registration.findUnique({ where: { bioRefId } });
  }

  /** A registration the platform made itself (request handler), received at once; false when the RID is taken. */
  async createGenerated(
    tx: PipelineTx,
    row: {
      rid: string;
      centreId: string;
      machineId: string;
      registrationType: string;
      packetHashValue: string;
      packetSize: number;
      supervisorComment: string | null;
      packetKey: string;
      by: string;
      now: Date;
    },
  ): Promise<boolean> {
    const { by, now, ...fields } = row;
    const made = await tx.registration.createMany({
      data: [
        {
          ...fields,
          origin: 'REQUEST_HANDLER',
          supervisorStatus: 'APPROVED',
          langCode: 'eng',
          status: 'PACKET_RECEIVED',
          stage: 'UPLOAD_PACKET',
          receivedAt: now,
          receivedBy: by,
          progressAt: now,
          syncedBy: by,
          createdAt: now,
          updatedAt: now,
        },
      ],
      skipDuplicates: true,
    });
    return made.count === 1;
  }

  inTransaction<T>(work: (tx: PipelineTx) => Promise<T>): Promise<T> {
    return this.prisma.$transaction(work);
  }

  /**
   * Moves a registration on, only if it is still at `stage` in one of
   * `from` (default: an active status): false when another run got there
   * first, and the caller rolls back.
   */
  async move(tx: PipelineTx, rid: string, at: { stage: string | null; from?: readonly string[] }, change: RegistrationChange, now: Date): Promise<boolean> {
    const moved = await tx.registration.updateMany({
      where: { rid, stage: at.stage, status: { in: [...(at.from ?? ACTIVE_STATUSES)] } },
      data: { ...change, ...(change.lastError ? { lastError: storable(change.lastError) } : {}), progressAt: now, updatedAt: now },
    });
    return moved.count === 1;
  }

  /** Transactions of one registration, chained to the one before (parentTransactionId), in one statement. */
  async record(tx: PipelineTx, rid: string, langCode: string, stage: TransactionType, items: readonly StageTransaction[], now: Date): Promise<void> {
    const last = await tx.registrationTransaction.findFirst({
      where: { rid },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      select: { id: true, createdAt: true },
    });
    // Strictly after the last one: the record reads in order even when two stages share a clock tick.
    const start = Math.max(now.getTime(), (last?.createdAt.getTime() ?? 0) + 1);
    const ids = items.map(() => randomUUID());
    await tx.registrationTransaction.createMany({
      data: items.map((item, index) => ({
        id: ids[index]!,
        rid,
        transactionTypeCode: item.type ?? stage,
        parentTransactionId: index === 0 ? (last?.id ?? null) : ids[index - 1]!,
        statusCode: item.statusCode,
        subStatusCode: item.subStatusCode ?? null,
        statusCommentCode: null,
        statusComment: storable(item.comment),
        langCode,
        createdAt: new Date(start + index),
      })),
    });
  }

  /** The registrations (not rejected, not this one) holding any of these biometric digests. */
  async holdersOf(digests: readonly string[], except: string): Promise<string[]> {
    if (!digests.length) return [];
    const rows = await this.prisma.biometricDigest.findMany({
      where: { digest: { in: [...digests] }, rid: { not: except } },
      select: { rid: true },
      distinct: ['rid'],
    });
    if (!rows.length) return [];
    const live = await this.prisma.registration.findMany({
      where: { rid: { in: rows.map((row) => row.rid) }, status: { not: 'REJECTED' } },
      select: { rid: true },
      orderBy: { rid: 'asc' },
    });
    return live.map((row) => row.rid);
  }

  async saveDigests(tx: PipelineTx, rid: string, digests: readonly string[], now: Date): Promise<void> {
    if (digests.length) await tx.biometricDigest.createMany({ data: digests.map((digest) => ({ digest, rid, createdAt: now })), skipDuplicates: true });
  }

  async addCandidates(tx: PipelineTx, rid: string, candidates: readonly Candidate[], now: Date): Promise<void> {
    await tx.manualVerification.createMany({
      data: candidates.map((candidate) => ({
        id: randomUUID(),
        rid,
        matchedRid: candidate.rid,
        matchedRefType: candidate.refType,
        reasonCode: candidate.reasonCode,
        status: 'PENDING',
        createdAt: now,
      })),
      skipDuplicates: true,
    });
  }

  /** REPROCESS registrations whose time has come, oldest first. */
  dueForReprocess(now: Date, limit: number): Promise<Registration[]> {
    return this.prisma.registration.findMany({
      where: { status: 'REPROCESS', nextAttemptAt: { lte: now } },
      orderBy: { nextAttemptAt: 'asc' },
      take: limit,
    });
  }

  stuck(query: StuckQuery, page: PageArgs): Promise<Connection<Registration>> {
    const where = stuckWhere(query);
    return connection(
      page,
      (row) => row.rid,
      (at) => this.prisma.registration.findMany({ where, orderBy: [{ rid: 'asc' }], ...pageArgs(at, 'rid') }),
      () => this.prisma.registration.count({ where }),
    );
  }

  /** The RIDs of stuck registrations, for a resume of a whole stage (bounded by `limit`). */
  async stuckRids(query: StuckQuery, limit: number): Promise<string[]> {
    const rows = await this.prisma.registration.findMany({ where: stuckWhere(query), select: { rid: true }, orderBy: { rid: 'asc' }, take: limit });
    return rows.map((row) => row.rid);
  }

  stuckCount(idleBefore: Date): Promise<number> {
    return this.prisma.registration.count({ where: stuckWhere({ idleBefore }) });
  }

  /** How many registrations are at each stage in each status (the operations view's counts), but those in the statuses `except`. */
  async countsByStage(except: readonly string[] = []): Promise<{ stage: string | null; status: string; count: number }[]> {
    const where = except.length ? { status: { notIn: [...except] } } : {};
    const groups = await this.prisma.registration.groupBy({ by: ['stage', 'status'], where, _count: { _all: true } });
    return groups.map((group) => ({ stage: group.stage, status: group.status, count: group._count._all }));
  }
}
