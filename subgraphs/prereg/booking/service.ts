import { randomUUID } from 'node:crypto';
import type { Connection, PageArgs } from '../../../lib/graph/connection.js';
import type { Clock } from '../../../lib/time.js';
import type { Caller as StaffCaller, CentreReach } from '../../masterdata/centres/reach.js';
import type { ApplicationsService } from '../applications/service.js';
import type { Caller } from '../applications/types.js';
import type { PreregConfiguration } from '../configuration/service.js';
import { applicationErrors, bookingErrors, requestErrors } from '../errors.js';
import { BOOKABLE, STATUS } from '../statuses.js';
import { addDays, dayOf, daysFrom, hasStarted, secondsOfTime, withinSpan } from './calendar.js';
import { hasSlot, opensOn, slotsOn, type CentreCalendars, type CentreSchedule } from './centre-days.js';
import type { BookingPlan, BookingStorage, BookOutcome } from './storage.js';
import { recordOf, slotKey, type AppointmentRequest, type BookingRecord, type CancelledBookingModel, type SlotCalendarModel } from './types.js';

export type BookingStore = Pick<BookingStorage, 'usage' | 'bookingOf' | 'bookingsOf' | 'book' | 'cancel' | 'ofCentre'>;

/** What MOSIP answers a cancellation with. */
const CANCELLED = 'Appointment cancelled successfully';

/**
 * Appointments: the slots a centre offers (computed from master data, the
 * places taken read from prereg_slot_usage), an applicant's booking of their
 * own applications (one, or several at once: all or none), reading and
 * cancelling it; an admin's list of a centre's appointments, within the
 * centres the admin reaches. Slots are the centre's wall clock; "past" is
 * measured against the platform clock in UTC.
 */
export class BookingService {
  constructor(
    private readonly store: BookingStore,
    private readonly calendars: Pick<CentreCalendars, 'of'>,
    private readonly applications: Pick<ApplicationsService, 'reach'>,
    private readonly configuration: Pick<PreregConfiguration, 'rules'>,
    private readonly centreReach: Pick<CentreReach, 'of' | 'requireListed'>,
    private readonly clock: Clock,
  ) {}

  /** The days offered: from today + preregistration.booking.offset, preregistration.availability.noOfDays of them. */
  private window(): string[] {
    const { bookingOffsetDays, availabilityDays } = this.configuration.rules();
    return daysFrom(addDays(dayOf(this.clock.now()), bookingOffsetDays), availabilityDays);
  }

  /** A centre's slots over the first `first` days offered, each with the places left (PRG_BOOK_RCI_035, PRG_BOOK_RCI_015). */
  async slots(centreId: string, first: number): Promise<SlotCalendarModel> {
    const days = this.window().slice(0, Math.max(0, first));
    const [firstDay, lastDay] = [days[0], days.at(-1)];
    if (!firstDay || !lastDay) return { registrationCenterId: centreId, days: [] };
    const schedule = await this.calendars.of(centreId, firstDay, lastDay);
    const booked = await this.store.usage(centreId, firstDay, lastDay);
    return {
      registrationCenterId: centreId,
      days: days.map((date) => ({
        date,
        holiday: !opensOn(schedule, date),
        slots: slotsOn(schedule, date).map((slot) => {
          const taken = booked.get(slotKey({ centreId, date, fromTime: slot.fromTime })) ?? 0;
          return { date, ...slot, capacity: schedule.capacity, available: Math.max(0, schedule.capacity - taken) };
        }),
      })),
    };
  }

  /** The appointment of an application the caller reaches (PRG_BOOK_RCI_013 when it has none). */
  async get(caller: Caller, preRegId: string): Promise<BookingRecord> {
    await this.applications.reach(caller, preRegId, 'read');
    const booking = await this.store.bookingOf(preRegId);
    if (!booking) throw bookingErrors.noBooking();
    return recordOf(booking);
  }

  /** Appointments of applications the caller reached already (the graph's Application.booking), by id. */
  async bookingsOf(preRegIds: readonly string[]): Promise<Map<string, BookingRecord>> {
    return new Map((await this.store.bookingsOf(preRegIds)).map((row) => [row.preRegId, recordOf(row)]));
  }

  /**
   * Books the caller's own applications, all of them or none: each must be
   * bookable, its slot one the centre has that day, within the days offered
   * and not started, and a re-booking outside preregistration.timespan.rebook;
   * a re-booked or expired appointment gives its place back in the same
   * transaction. The last place goes to one caller: the other gets
   * PRG_BOOK_RCI_002.
   */
  async book(caller: Caller, requests: readonly AppointmentRequest[]): Promise<BookingRecord[]> {
    const ids = requests.map((request) => request.preRegistrationId);
    if (new Set(ids).size !== ids.length) throw requestErrors.invalid('bookingRequest', 'an application is named twice');
    const plans: BookingPlan[] = [];
    for (const request of requests) plans.push(await this.plan(caller, request));
    const now = this.clock.now();
    refuseOutcome(await this.store.book(plans, caller.subject, now));
    return plans.map(({ preRegId, slot }) => recordOf({ preRegId, ...slot, bookedAt: now }));
  }

  private async plan(caller: Caller, request: AppointmentRequest): Promise<BookingPlan> {
    const application = await this.applications.reach(caller, request.preRegistrationId, 'change');
    if (application.statusCode === STATUS.incomplete) throw bookingErrors.incomplete();
    if (!BOOKABLE.includes(application.statusCode)) throw applicationErrors.updateRefused(application.statusCode);
    const { appointmentDate: date, timeSlotFrom: fromTime, timeSlotTo: toTime, registrationCenterId: centreId } = request;
    if ((secondsOfTime(fromTime) ?? 0) >= (secondsOfTime(toTime) ?? 0)) throw bookingErrors.slotTimes('time_slot_from must be before time_slot_to');
    const now = this.clock.now();
    if (hasStarted(date, fromTime, now)) throw bookingErrors.past();
    const schedule: CentreSchedule = await this.calendars.of(centreId, date, date);
    // Only the days offered: none before today + the booking offset, none after the window.
    const window = this.window();
    const offered = window.length > 0 && date >= window[0]! && date <= window.at(-1)!;
    if (!offered || !hasSlot(schedule, date, { fromTime, toTime })) throw bookingErrors.slotTaken();
    const { rebookHours } = this.configuration.rules();
    if (application.statusCode === STATUS.booked && rebookHours > 0) {
      const old = await this.store.bookingOf(application.id);
      if (old && withinSpan(rebookHours, old.date, old.fromTime, now)) throw bookingErrors.tooLate('re-booking', rebookHours);
    }
    return { preRegId: application.id, from: BOOKABLE, slot: { centreId, date, fromTime, toTime }, capacity: schedule.capacity };
  }

  /**
   * Cancels the appointment of the caller's own Booked application
   * (PRG_BOOK_RCI_018 otherwise), outside preregistration.timespan.cancel
   * (PRG_BOOK_RCI_026): its place returns, the application is Cancelled.
   */
  async cancel(caller: Caller, preRegId: string): Promise<CancelledBookingModel> {
    const application = await this.applications.reach(caller, preRegId, 'change');
    if (application.statusCode !== STATUS.booked) throw bookingErrors.cancelRefused(application.statusCode);
    const booking = await this.store.bookingOf(preRegId);
    if (!booking) throw bookingErrors.noBooking();
    const { cancelHours } = this.configuration.rules();
    const now = this.clock.now();
    if (withinSpan(cancelHours, booking.date, booking.fromTime, now)) throw bookingErrors.tooLate('cancelling', cancelHours);
    const outcome = await this.store.cancel(preRegId, caller.subject, now);
    if (outcome.kind === 'gone') throw applicationErrors.notFound();
    if (outcome.kind === 'not-booked') throw bookingErrors.cancelRefused(outcome.status);
    if (outcome.kind !== 'cancelled') throw bookingErrors.noBooking();
    return { preRegistrationId: preRegId, transactionId: randomUUID(), message: CANCELLED, cancelledBy: caller.subject, cancelledAt: now };
  }

  /**
   * A centre's appointments (of one day, or all) for a pre-registration admin
   * who also administers the centre's zone (a zone admin role mapped to it or
   * above), or the platform admin: KER-MSD-439 / KER-ATH-403 for another's
   * centre; a centre that does not exist lists nothing.
   */
  async ofCentre(caller: StaffCaller, centreId: string, day: string | null | undefined, page: PageArgs): Promise<Connection<BookingRecord>> {
    await this.centreReach.requireListed(await this.centreReach.of(caller), centreId);
    const found = await this.store.ofCentre(centreId, day ?? undefined, page);
    return { ...found, edges: found.edges.map((edge) => ({ cursor: edge.cursor, node: recordOf(edge.node) })) };
  }
}

/** A booking the store refused, as the caller's error. */
function refuseOutcome(outcome: BookOutcome): void {
  if (outcome.kind === 'full') throw bookingErrors.slotTaken();
  if (outcome.kind !== 'changed') return;
  if (outcome.status === null) throw applicationErrors.notFound();
  throw outcome.status === STATUS.incomplete ? bookingErrors.incomplete() : applicationErrors.updateRefused(outcome.status);
}
