import type { ManualVerification, Prisma, PrismaClient, Registration } from '../../../generated/prisma/client.js';
import { connection, pageArgs, type Connection, type PageArgs } from '../../../lib/graph/connection.js';
import type { PipelineTx } from '../pipeline/storage.js';

export type VerificationRow = ManualVerification;

/** Which registrations the adjudicator's queue lists: `assignedTo` undefined for anyone's, null for nobody's. */
export interface QueueQuery {
  assignedTo?: string | null;
  status?: string | null;
}

/** The manual verifications' table (regproc_manual_verification): the only code that touches it. */
export class VerificationStorage {
  constructor(private readonly prisma: PrismaClient) {}

  /** The registration an adjudicator holds (ASSIGNED to them), if any. */
  async assignedTo(user: string): Promise<string | null> {
    const row = await this.prisma.manualVerification.findFirst({
      where: { assignedTo: user, status: 'ASSIGNED' },
      orderBy: { assignedAt: 'asc' },
      select: { rid: true },
    });
    return row?.rid ?? null;
  }

  /** The oldest registrations with unassigned possible duplicates, waiting at MANUAL_ADJUDICATION. */
  async waiting(limit: number): Promise<string[]> {
    const rows = await this.prisma.manualVerification.findMany({
      where: { status: 'PENDING', registration: { stage: 'MANUAL_ADJUDICATION', status: 'PROCESSING' } },
      orderBy: [{ createdAt: 'asc' }, { rid: 'asc' }],
      select: { rid: true },
      distinct: ['rid'],
      take: limit,
    });
    return rows.map((row) => row.rid);
  }

  /** Assigns every pending match of one registration to the adjudicator; false when another took it first. */
  async assign(rid: string, user: string, now: Date): Promise<boolean> {
    const taken = await this.prisma.manualVerification.updateMany({
      where: { rid, status: 'PENDING' },
      data: { status: 'ASSIGNED', assignedTo: user, assignedAt: now },
    });
    return taken.count > 0;
  }

  /** Registrations with a possible duplicate matching the query, oldest first (the order adjudicators take them). */
  queue(query: QueueQuery, page: PageArgs): Promise<Connection<Registration>> {
    const where: Prisma.RegistrationWhereInput = {
      manualVerifications: {
        some: { ...(query.assignedTo !== undefined ? { assignedTo: query.assignedTo } : {}), ...(query.status ? { status: query.status } : {}) },
      },
    };
    return connection(
      page,
      (row) => row.rid,
      (at) => this.prisma.registration.findMany({ where, orderBy: [{ createdAt: 'asc' }, { rid: 'asc' }], ...pageArgs(at, 'rid') }),
      () => this.prisma.registration.count({ where }),
    );
  }

  matchesOf(rid: string): Promise<VerificationRow[]> {
    return this.prisma.manualVerification.findMany({ where: { rid }, orderBy: [{ createdAt: 'asc' }, { matchedRid: 'asc' }] });
  }

  matchesOfMany(rids: readonly string[]): Promise<VerificationRow[]> {
    return rids.length
      ? this.prisma.manualVerification.findMany({ where: { rid: { in: [...rids] } }, orderBy: [{ createdAt: 'asc' }, { matchedRid: 'asc' }] })
      : Promise.resolve([]);
  }

  registration(rid: string): Promise<Registration | null> {
    return this.prisma.registration.findUnique({ where: { rid } });
  }

  inTransaction<T>(work: (tx: PipelineTx) => Promise<T>): Promise<T> {
    return this.prisma.$transaction(work);
  }

  /** Records the decision on the adjudicator's assigned matches; false when they were decided or reassigned meanwhile. */
  async decide(tx: PipelineTx, rid: string, user: string, status: 'APPROVED' | 'REJECTED', now: Date): Promise<boolean> {
    const decided = await tx.manualVerification.updateMany({ where: { rid, assignedTo: user, status: 'ASSIGNED' }, data: { status, decidedAt: now } });
    return decided.count > 0;
  }
}
