import { Prisma, type PrismaClient } from '../../../generated/prisma/client.js';
import { connection, pageArgs, type Connection, type PageArgs } from '../../../lib/graph/connection.js';
import type { JobTx } from '../../../lib/jobs/types.js';
import { STATUS, type ApplicationStatus } from '../statuses.js';
import { dateOfDay, dayOf } from './calendar.js';
import { slotKey, type BookedSlot, type Slot, type SlotKey } from './types.js';

/** One appointment to write: the application, the statuses it may still be in, its slot and the slot's capacity. */
export interface BookingPlan {
  preRegId: string;
  from: readonly ApplicationStatus[];
  slot: Slot;
  capacity: number;
}

/** How a booking ended: written, a slot full (the last place taken meanwhile), or an application no longer in a bookable status. */
export type BookOutcome = { kind: 'booked' } | { kind: 'full'; slot: Slot } | { kind: 'changed'; preRegId: string; status: ApplicationStatus | null };

/** How a cancellation ended; `moved`: the booking is no longer the one expected (re-booked meanwhile). */
export type CancelOutcome =
  | { kind: 'cancelled'; booking: BookedSlot }
  | { kind: 'gone' }
  | { kind: 'not-booked'; status: ApplicationStatus }
  | { kind: 'no-booking' }
  | { kind: 'moved' };

/** Which booked appointments from a day on a safety check reads: of some days, or of one centre. */
export interface UpcomingScope {
  fromDay: string;
  dates?: readonly string[];
  centreId?: string;
}

/** A refusal inside a booking's transaction: rolls it back, then is answered as its outcome. */
class Refused extends Error {
  constructor(readonly outcome: BookOutcome) {
    super(outcome.kind);
  }
}

const asStatus = (status: string) => status as ApplicationStatus;

type BookingRow = { preRegId: string; centreId: string; date: Date; fromTime: string; toTime: string; bookedAt: Date };
const bookedOf = (row: BookingRow): BookedSlot => ({
  preRegId: row.preRegId,
  centreId: row.centreId,
  date: dayOf(row.date),
  fromTime: row.fromTime,
  toTime: row.toTime,
  bookedAt: row.bookedAt,
});
const BOOKED_SLOT = { preRegId: true, centreId: true, date: true, fromTime: true, toTime: true, bookedAt: true } satisfies Prisma.PreRegBookingSelect;

/**
 * Appointments (prereg_booking) and how many each slot holds
 * (prereg_slot_usage): the only code that touches them but the applications'
 * delete. `booked` always equals the slot's booking rows: every write of a
 * booking changes its slot's count in the same transaction, and a place is
 * taken by one conditional increment, the last-place race's arbiter.
 */
export class BookingStorage {
  constructor(private readonly prisma: PrismaClient) {}

  /** How many places each slot of a centre holds between two days, by `slotKey`: one range read on the slot key. */
  async usage(centreId: string, fromDay: string, toDay: string): Promise<Map<string, number>> {
    const rows = await this.prisma.preRegSlotUsage.findMany({
      where: { centreId, date: { gte: dateOfDay(fromDay), lte: dateOfDay(toDay) } },
      select: { date: true, fromTime: true, booked: true },
    });
    return new Map(rows.map((row) => [slotKey({ centreId, date: dayOf(row.date), fromTime: row.fromTime }), row.booked]));
  }

  async bookingOf(preRegId: string): Promise<BookedSlot | null> {
    const row = await this.prisma.preRegBooking.findUnique({ where: { preRegId }, select: BOOKED_SLOT });
    return row ? bookedOf(row) : null;
  }

  async bookingsOf(preRegIds: readonly string[]): Promise<BookedSlot[]> {
    const rows = await this.prisma.preRegBooking.findMany({ where: { preRegId: { in: [...preRegIds] } }, select: BOOKED_SLOT });
    return rows.map(bookedOf);
  }

  /**
   * Books every plan or none. The applications are locked (in id order), each
   * still in a status it may be booked from; their old bookings give their
   * places back and the new ones take theirs, slot by slot in key order (two
   * re-bookings crossing each other never deadlock): a place is taken by
   * `INSERT … ON CONFLICT DO UPDATE … WHERE booked + n <= capacity`, which
   * PostgreSQL evaluates on the row as the last committed writer left it.
   */
  async book(plans: readonly BookingPlan[], by: string, at: Date): Promise<BookOutcome> {
    const ids = plans.map((plan) => plan.preRegId).sort();
    try {
      await this.prisma.$transaction(async (tx) => {
        const locked = await tx.$queryRaw<{ id: string; statusCode: string }[]>`
          SELECT id, "statusCode" FROM prereg_application WHERE id IN (${Prisma.join(ids)}) ORDER BY id FOR UPDATE`;
        for (const plan of plans) {
          const status = locked.find((row) => row.id === plan.preRegId)?.statusCode;
          if (!status || !plan.from.includes(asStatus(status)))
            throw new Refused({ kind: 'changed', preRegId: plan.preRegId, status: status ? asStatus(status) : null });
        }
        const old = (await tx.preRegBooking.findMany({ where: { preRegId: { in: ids } }, select: BOOKED_SLOT })).map(bookedOf);
        const deltas = new Map<string, { slot: Slot; delta: number; capacity: number }>();
        const change = (slot: Slot, delta: number, capacity = 0) => {
          const entry = deltas.get(slotKey(slot)) ?? { slot, delta: 0, capacity };
          deltas.set(slotKey(slot), { slot: entry.slot, delta: entry.delta + delta, capacity: Math.max(entry.capacity, capacity) });
        };
        for (const booking of old) change(booking, -1);
        for (const plan of plans) change(plan.slot, 1, plan.capacity);
        for (const [, { slot, delta, capacity }] of [...deltas].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
          if (delta > 0 && !(await this.take(tx, slot, delta, capacity))) throw new Refused({ kind: 'full', slot });
          if (delta < 0) await this.giveBack(tx, slot, -delta);
        }
        await tx.preRegBooking.deleteMany({ where: { preRegId: { in: ids } } });
        await tx.preRegBooking.createMany({
          data: plans.map(({ preRegId, slot }) => ({ preRegId, ...this.columns(slot), bookedBy: by, bookedAt: at })),
        });
        await tx.preRegApplication.updateMany({ where: { id: { in: ids } }, data: { statusCode: STATUS.booked, updatedBy: by, updatedAt: at } });
      });
      return { kind: 'booked' };
    } catch (error) {
      if (error instanceof Refused) return error.outcome;
      throw error;
    }
  }

  /** Takes `count` places of a slot if it has them: whether it did. */
  private async take(tx: JobTx, slot: Slot, count: number, capacity: number): Promise<boolean> {
    if (count > capacity) return false;
    const taken = await tx.$queryRaw<{ booked: number }[]>`
      INSERT INTO prereg_slot_usage ("centreId", "date", "fromTime", "toTime", "booked")
      VALUES (${slot.centreId}, ${slot.date}::date, ${slot.fromTime}, ${slot.toTime}, ${count}::int)
      ON CONFLICT ("centreId", "date", "fromTime") DO UPDATE SET "booked" = prereg_slot_usage."booked" + EXCLUDED."booked"
      WHERE prereg_slot_usage."booked" + EXCLUDED."booked" <= ${capacity}::int
      RETURNING "booked"`;
    return taken.length === 1;
  }

  private async giveBack(tx: JobTx, slot: SlotKey, count: number): Promise<void> {
    await tx.$executeRaw`
      UPDATE prereg_slot_usage SET "booked" = GREATEST("booked" - ${count}::int, 0)
      WHERE "centreId" = ${slot.centreId} AND "date" = ${slot.date}::date AND "fromTime" = ${slot.fromTime}`;
  }

  private columns(slot: Slot) {
    return { centreId: slot.centreId, date: dateOfDay(slot.date), fromTime: slot.fromTime, toTime: slot.toTime };
  }

  /**
   * Cancels a Booked application's appointment: its place returns, the
   * booking goes, the status becomes Cancelled, and `then` (the resident's
   * notices) runs in the same transaction. With `expected`, only while the
   * booking is still that slot.
   */
  async cancel(preRegId: string, by: string, at: Date, options: { expected?: Slot; then?: (tx: JobTx) => Promise<void> } = {}): Promise<CancelOutcome> {
    return this.prisma.$transaction(async (tx): Promise<CancelOutcome> => {
      const [row] = await tx.$queryRaw<{ statusCode: string }[]>`SELECT "statusCode" FROM prereg_application WHERE id = ${preRegId} FOR UPDATE`;
      if (!row) return { kind: 'gone' };
      if (row.statusCode !== STATUS.booked) return { kind: 'not-booked', status: asStatus(row.statusCode) };
      const found = await tx.preRegBooking.findUnique({ where: { preRegId }, select: BOOKED_SLOT });
      if (!found) return { kind: 'no-booking' };
      const booking = bookedOf(found);
      const { expected } = options;
      if (expected && (slotKey(expected) !== slotKey(booking) || expected.toTime !== booking.toTime)) return { kind: 'moved' };
      await this.giveBack(tx, booking, 1);
      await tx.preRegBooking.delete({ where: { preRegId } });
      await tx.preRegApplication.update({ where: { id: preRegId }, data: { statusCode: STATUS.cancelled, updatedBy: by, updatedAt: at } });
      await options.then?.(tx);
      return { kind: 'cancelled', booking };
    });
  }

  /** Booked applications whose appointment day is before `day` become Expired (their booking stays, as MOSIP keeps it): how many. */
  async expire(day: string, by: string, at: Date): Promise<number> {
    const { count } = await this.prisma.preRegApplication.updateMany({
      where: { statusCode: STATUS.booked, booking: { date: { lt: dateOfDay(day) } } },
      data: { statusCode: STATUS.expired, updatedBy: by, updatedAt: at },
    });
    return count;
  }

  /** A page of Booked applications' appointments from a day on, by pre-registration id after `after`. */
  async upcoming(scope: UpcomingScope, after: string | undefined, take: number): Promise<BookedSlot[]> {
    const rows = await this.prisma.preRegBooking.findMany({
      where: {
        date: { gte: dateOfDay(scope.fromDay), ...(scope.dates ? { in: scope.dates.map(dateOfDay) } : {}) },
        ...(scope.centreId ? { centreId: scope.centreId } : {}),
        ...(after ? { preRegId: { gt: after } } : {}),
        application: { statusCode: STATUS.booked },
      },
      select: BOOKED_SLOT,
      orderBy: { preRegId: 'asc' },
      take,
    });
    return rows.map(bookedOf);
  }

  /** A centre's appointments (of one day, or all), by day and slot, as a connection. */
  ofCentre(centreId: string, day: string | undefined, args: PageArgs): Promise<Connection<BookedSlot>> {
    const where = { centreId, ...(day ? { date: dateOfDay(day) } : {}) };
    return connection(
      args,
      (row) => row.preRegId,
      async (page) =>
        (
          await this.prisma.preRegBooking.findMany({
            where,
            select: BOOKED_SLOT,
            orderBy: [{ date: 'asc' }, { fromTime: 'asc' }, { preRegId: 'asc' }],
            ...pageArgs(page, 'preRegId'),
          })
        ).map(bookedOf),
      () => this.prisma.preRegBooking.count({ where }),
    );
  }
}
