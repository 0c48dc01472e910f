import type { Prisma, PrismaClient, Registration, RegistrationTransaction } from '../../../generated/prisma/client.js';
import { connection, pageArgs, type Connection, type PageArgs } from '../../../lib/graph/connection.js';
import { type NestedList } from '../../../lib/graph/nested.js';
import { windowList } from '../../../lib/db/window.js';

export type RegistrationRow = Registration;
export type TransactionRow = RegistrationTransaction;

/** What a sync records of one RID. */
export interface SyncedRecord {
  rid: string;
  registrationType: string;
  packetHashValue: string;
  packetSize: number;
  supervisorStatus: string;
  supervisorComment: string | null;
  langCode: string;
  optionalValues: { key: string; value: string | null }[] | null;
  parentRid: string | null;
}

/** Which registrations a list shows. */
export interface RegistrationQuery {
  status?: string | null;
  stage?: string | null;
  centreId?: string | null;
  from?: Date | null;
  to?: Date | null;
}

/** The registrations' tables as the rules see them: the seam a test fills with rows in memory. */
export interface RegistrationStore {
  byRids(rids: readonly string[]): Promise<RegistrationRow[]>;
  /** registrations by their biometric references (the ABIS referenceIds), compared in lower case */
  byBioRefIds(referenceIds: readonly string[]): Promise<RegistrationRow[]>;
  /** records new RIDs and replaces the synced values of `replace` ones, all or none */
  saveSynced(
    point: { centreId: string; machineId: string; syncedBy: string; now: Date },
    create: readonly SyncedRecord[],
    replace: readonly SyncedRecord[],
  ): Promise<void>;
  list(query: RegistrationQuery, page: PageArgs): Promise<Connection<RegistrationRow>>;
  /** the transactions of these RIDs, oldest first (the first `take` when given) */
  transactionsOf(rids: readonly string[], take?: number): Promise<TransactionRow[]>;
  /** the transactions of each registration of a page, oldest first, as a nested list */
  transactionsOfRegistrations(): NestedList<TransactionRow>;
}

const syncedFields = (record: SyncedRecord) => ({
  registrationType: record.registrationType,
  packetHashValue: record.packetHashValue,
  packetSize: record.packetSize,
  supervisorStatus: record.supervisorStatus,
  supervisorComment: record.supervisorComment,
  langCode: record.langCode,
  optionalValues: (record.optionalValues ?? undefined) as Prisma.InputJsonValue | undefined,
  parentRid: record.parentRid,
});

/** The registration processor's tables (regproc_registration, regproc_transaction): the only code that touches them. */
export class RegistrationStorage implements RegistrationStore {
  constructor(private readonly prisma: PrismaClient) {}

  byRids(rids: readonly string[]): Promise<RegistrationRow[]> {
    return rids.length ? this.prisma.registration.findMany({ where: { rid: { in: [...rids] } } }) : Promise.resolve([]);
  }

  byBioRefIds(referenceIds: readonly string[]): Promise<RegistrationRow[]> {
    if (!referenceIds.length) return Promise.resolve([]);
    return this.prisma.registration.findMany({ where: { bioRefId: { in: referenceIds.map((id) => id.toLowerCase()) } } });
  }

  async saveSynced(
    point: { centreId: string; machineId: string; syncedBy: string; now: Date },
    create: readonly SyncedRecord[],
    replace: readonly SyncedRecord[],
  ): Promise<void> {
    const { centreId, machineId, syncedBy, now } = point;
    await this.prisma.$transaction([
      ...(create.length
        ? [
            // A concurrent sync of the same RID from the same machine: the first one's values stand.
            this.prisma.registration.createMany({
              skipDuplicates: true,
              data: create.map((record) => ({
                rid: record.rid,
                centreId,
                machineId,
                ...syncedFields(record),
                status: 'UPLOAD_PENDING',
                syncedBy,
                createdAt: now,
                updatedAt: now,
              })),
            }),
          ]
        : []),
      // Only while the packet is awaited: a row the receiver has moved on is never rewritten by a late sync.
      ...replace.map((record) =>
        this.prisma.registration.updateMany({
          where: { rid: record.rid, centreId, machineId, status: 'UPLOAD_PENDING' },
          data: { ...syncedFields(record), updatedAt: now },
        }),
      ),
    ]);
  }

  list(query: RegistrationQuery, page: PageArgs): Promise<Connection<RegistrationRow>> {
    const where: Prisma.RegistrationWhereInput = {
      ...(query.status ? { status: query.status } : {}),
      ...(query.stage ? { stage: query.stage } : {}),
      ...(query.centreId ? { centreId: query.centreId } : {}),
      ...(query.from || query.to ? { createdAt: { ...(query.from ? { gte: query.from } : {}), ...(query.to ? { lt: query.to } : {}) } } : {}),
    };
    return connection(
      page,
      (row) => row.rid,
      (at) => this.prisma.registration.findMany({ where, orderBy: [{ createdAt: 'desc' }, { rid: 'desc' }], ...pageArgs(at, 'rid') }),
      () => this.prisma.registration.count({ where }),
    );
  }

  transactionsOfRegistrations(): NestedList<TransactionRow> {
    const oldest: Prisma.RegistrationTransactionOrderByWithRelationInput[] = [{ createdAt: 'asc' }, { id: 'asc' }];
    return windowList<TransactionRow>(
      this.prisma,
      {
        table: 'regproc_transaction',
        parentColumn: 'rid',
        orderBy: [
          ['createdAt', 'asc'],
          ['id', 'asc'],
        ],
      },
      {
        after: (rid, page) => this.prisma.registrationTransaction.findMany({ where: { rid }, ...pageArgs(page, 'id'), orderBy: oldest }),
        key: (row) => row.id,
      },
    );
  }

  transactionsOf(rids: readonly string[], take?: number): Promise<TransactionRow[]> {
    return rids.length
      ? this.prisma.registrationTransaction.findMany({
          where: { rid: { in: [...rids] } },
          orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
          ...(take === undefined ? {} : { take }),
        })
      : Promise.resolve([]);
  }
}
