import type { PrismaClient } from '../../../generated/prisma/client.js';
import type { JobTx } from '../../../lib/jobs/types.js';
import { APPLICATION_ROW } from '../applications/storage.js';
import { STATUS, type ApplicationStatus } from '../statuses.js';
import type { ApplicationPlace, SyncedBooking } from './types.js';

const APPLICATION = {
  ...APPLICATION_ROW,
  booking: { select: { centreId: true, date: true, fromTime: true, toTime: true } },
} as const;

/**
 * What sync reads and writes of pre-registration's tables: appointments and
 * applications read (booking's and applications' rows), the consumed ids
 * (prereg_consumed, sync's own), an application's status set Consumed, and
 * a consumed application moved whole into its consumed row.
 */
export class SyncStorage {
  constructor(private readonly prisma: PrismaClient) {}

  /** The appointments at a centre between two days (both included) of applications not consumed: by day, slot and id, at most `take`. */
  bookedAt(centreId: string, from: Date, to: Date, take: number): Promise<SyncedBooking[]> {
    return this.prisma.preRegBooking.findMany({
      where: { centreId, date: { gte: from, lte: to }, application: { statusCode: { not: STATUS.consumed } } },
      select: { preRegId: true, centreId: true, date: true, fromTime: true, toTime: true },
      orderBy: [{ date: 'asc' }, { fromTime: 'asc' }, { preRegId: 'asc' }],
      take,
    });
  }

  /** Applications with their appointments (null without one), by id; an unknown id is left out. */
  async places(ids: readonly string[]): Promise<ApplicationPlace[]> {
    const rows = await this.prisma.preRegApplication.findMany({ where: { id: { in: [...ids] } }, select: APPLICATION });
    return rows.map(({ booking, ...application }) => ({ application: { ...application, statusCode: application.statusCode as ApplicationStatus }, booking }));
  }

  /** Which of these ids registration has taken in (reported, moved or not). */
  async consumedAmong(ids: readonly string[]): Promise<Set<string>> {
    const rows = await this.prisma.preRegConsumed.findMany({ where: { preRegId: { in: [...ids] } }, select: { preRegId: true } });
    return new Set(rows.map((row) => row.preRegId));
  }

  /**
   * Takes consumed ids in, in one transaction: a row each in prereg_consumed
   * (an id already there keeps its first report), their applications
   * Consumed, and `then` (the move's job) with them.
   */
  consume(ids: readonly string[], by: string, at: Date, then: (tx: JobTx) => Promise<void>): Promise<void> {
    return this.prisma.$transaction(async (tx) => {
      await tx.preRegConsumed.createMany({ data: ids.map((preRegId) => ({ preRegId, reportedBy: by, reportedAt: at })), skipDuplicates: true });
      await tx.preRegApplication.updateMany({
        where: { id: { in: [...ids] }, statusCode: { not: STATUS.consumed } },
        data: { statusCode: STATUS.consumed, updatedBy: by, updatedAt: at },
      });
      await then(tx);
    });
  }

  /** Consumed ids whose application has not been moved yet, first reported first, at most `take`. */
  async unmoved(take: number): Promise<string[]> {
    const rows = await this.prisma.preRegConsumed.findMany({
      where: { movedAt: null },
      select: { preRegId: true },
      orderBy: [{ reportedAt: 'asc' }, { preRegId: 'asc' }],
      take,
    });
    return rows.map((row) => row.preRegId);
  }

  /**
   * Moves a consumed application into its consumed row (its sealed identity
   * and appointment as they were) and deletes the live rows, its documents'
   * and appointment's with it (cascade); the appointment's place goes back to
   * its slot, whose count is kept with its bookings (a slot still to come is
   * free again: its resident has registered). False when there was nothing to
   * move: not reported, or moved already (by a run that claimed it first).
   */
  move(preRegId: string, at: Date): Promise<boolean> {
    return this.prisma.$transaction(async (tx) => {
      const claimed = await tx.preRegConsumed.updateMany({ where: { preRegId, movedAt: null }, data: { movedAt: at } });
      if (!claimed.count) return false;
      const row = await tx.preRegApplication.findUnique({ where: { id: preRegId }, include: { booking: true } });
      if (!row) return true;
      const { createdBy, langCode, demographic, demographicHash, booking } = row;
      const appointment = booking ? { centreId: booking.centreId, date: booking.date, fromTime: booking.fromTime, toTime: booking.toTime } : {};
      await tx.preRegConsumed.update({ where: { preRegId }, data: { createdBy, langCode, demographic, demographicHash, ...appointment } });
      if (booking)
        await tx.preRegSlotUsage.updateMany({
          where: { centreId: booking.centreId, date: booking.date, fromTime: booking.fromTime, booked: { gt: 0 } },
          data: { booked: { decrement: 1 } },
        });
      await tx.preRegApplication.delete({ where: { id: preRegId } });
      return true;
    });
  }
}
