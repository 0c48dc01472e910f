import type { Prisma, PrismaClient } from '../../../generated/prisma/client.js';
import { connection, pageArgs, type Connection, type PageArgs } from '../../../lib/graph/connection.js';
import { unlessTaken } from '../../../lib/db/unique.js';
import { STATUS, type ApplicationStatus } from '../statuses.js';
import type { ApplicationRow } from './types.js';

/** An application with its sealed demographic data. */
export interface StoredApplication extends ApplicationRow {
  demographic: string;
  demographicHash: string;
}

/** An application's columns but its sealed identity: what every read of this component selects (sync adds the booking). */
export const APPLICATION_ROW = {
  id: true,
  createdBy: true,
  langCode: true,
  statusCode: true,
  bookingType: true,
  createdAt: true,
  updatedBy: true,
  updatedAt: true,
} satisfies Prisma.PreRegApplicationSelect;

const asRow = <T extends { statusCode: string }>(row: T) => row as T & { statusCode: ApplicationStatus };

/** Applications (prereg_application): the only code that writes their rows but for booking's and sync's status changes. */
export class ApplicationStorage {
  constructor(private readonly prisma: PrismaClient) {}

  /** false when the id is taken (a generated id met an existing one). */
  async create(row: Omit<StoredApplication, 'updatedBy' | 'updatedAt' | 'bookingType'>): Promise<boolean> {
    return (await unlessTaken(this.prisma.preRegApplication.create({ data: row, select: { id: true } }))) !== null;
  }

  async byId(id: string): Promise<StoredApplication | null> {
    const row = await this.prisma.preRegApplication.findUnique({ where: { id } });
    return row ? asRow(row) : null;
  }

  async byIds(ids: readonly string[]): Promise<ApplicationRow[]> {
    const rows = await this.prisma.preRegApplication.findMany({ where: { id: { in: [...ids] } }, select: APPLICATION_ROW });
    return rows.map(asRow);
  }

  /** Replaces the demographic data, unless the status moved into one of `locked` meanwhile: whether it was written. */
  async update(
    id: string,
    change: { demographic: string; demographicHash: string; langCode: string; updatedBy: string; updatedAt: Date },
    locked: readonly ApplicationStatus[],
  ): Promise<boolean> {
    const { count } = await this.prisma.preRegApplication.updateMany({ where: { id, statusCode: { notIn: [...locked] } }, data: change });
    return count === 1;
  }

  /** Moves the status from one of `from` to `to`: whether it moved. */
  async moveStatus(id: string, from: readonly ApplicationStatus[], to: ApplicationStatus, by: string, at: Date): Promise<boolean> {
    const { count } = await this.prisma.preRegApplication.updateMany({
      where: { id, statusCode: { in: [...from] } },
      data: { statusCode: to, updatedBy: by, updatedAt: at },
    });
    return count === 1;
  }

  /**
   * Deletes it with its document rows and booking (cascade), unless its status is one of `kept`; a booking's
   * place goes back to its slot in the same transaction (prereg_slot_usage counts the bookings of each slot).
   */
  async delete(id: string, kept: readonly ApplicationStatus[]): Promise<boolean> {
    return this.prisma.$transaction(async (tx) => {
      const row = await tx.preRegApplication.findUnique({ where: { id }, select: { statusCode: true, booking: true } });
      if (!row || kept.includes(row.statusCode as ApplicationStatus)) return false;
      const { booking } = row;
      if (booking)
        await tx.preRegSlotUsage.updateMany({
          where: { centreId: booking.centreId, date: booking.date, fromTime: booking.fromTime, booked: { gt: 0 } },
          data: { booked: { decrement: 1 } },
        });
      await tx.preRegApplication.delete({ where: { id } });
      return true;
    });
  }

  /** The object keys of an application's documents: removed from the store once the rows are gone. */
  async documentKeys(id: string): Promise<string[]> {
    const rows = await this.prisma.preRegDocument.findMany({ where: { preRegId: id }, select: { objectKey: true } });
    return rows.map((row) => row.objectKey);
  }

  /** One page of an applicant's applications, newest first (MOSIP's pageIndex paging), with their total. */
  async page(owner: string, pageIndex: number, size: number): Promise<{ rows: ApplicationRow[]; total: number }> {
    const where = { createdBy: owner, statusCode: { not: STATUS.consumed } };
    const [rows, total] = await Promise.all([
      this.prisma.preRegApplication.findMany({
        where,
        select: APPLICATION_ROW,
        orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
        skip: pageIndex * size,
        take: size,
      }),
      this.prisma.preRegApplication.count({ where }),
    ]);
    return { rows: rows.map(asRow), total };
  }

  /** An applicant's applications as a connection (the portal's viewer), oldest first. */
  connectionOf(owner: string, args: PageArgs): Promise<Connection<ApplicationRow>> {
    const where = { createdBy: owner };
    return connection(
      args,
      (row) => row.id,
      async (page) =>
        (
          await this.prisma.preRegApplication.findMany({
            where,
            select: APPLICATION_ROW,
            orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
            ...pageArgs(page, 'id'),
          })
        ).map(asRow),
      () => this.prisma.preRegApplication.count({ where }),
    );
  }

  /** The categories of an application's documents. */
  async documentCategories(id: string): Promise<string[]> {
    const rows = await this.prisma.preRegDocument.findMany({ where: { preRegId: id }, select: { docCatCode: true } });
    return rows.map((row) => row.docCatCode);
  }
}
