import type { JobTx } from '../../../lib/jobs/types.js';
import type { Logger } from '../../../lib/log.js';
import type { Clock } from '../../../lib/time.js';
import type { ComposedNotification, NotificationService } from '../../notify/service.js';
import type { ApplicationsService } from '../applications/service.js';
import type { ApplicationRow } from '../applications/types.js';
import { STATUS } from '../statuses.js';
import { dayOf } from './calendar.js';
import { hasSlot, type CentreCalendars } from './centre-days.js';
import type { BookingStorage, UpcomingScope } from './storage.js';
import type { BookedSlot } from './types.js';

/** Who the jobs' changes are recorded as. */
export const BOOKING_UPKEEP = 'prereg-booking';
/** The template of the notice a resident gets when their appointment's slot is gone (notify's built-in templates). */
export const CANCELLED_TEMPLATE = 'PREREG_APPOINTMENT_CANCELLED';
/** Appointments checked per read: a bound on what one page of the safety net holds in memory. */
const PAGE = 500;

/** Which appointments a check covers: those of some days (a holiday made), of a centre (closed), or all of them from today. */
export interface SlotsGone {
  dates?: string[];
  centreId?: string;
}

/**
 * What booking does later, as jobs: expired appointments, and appointments
 * whose slot master data no longer offers (a holiday made, a centre
 * deactivated or deleted, hours changed, even while the platform was down)
 * cancelled with their place returned and a notice to the resident, in one
 * transaction per appointment. Run twice, each has one effect: a cancelled
 * appointment is no longer Booked.
 */
export class BookingUpkeep {
  constructor(
    private readonly store: Pick<BookingStorage, 'expire' | 'upcoming' | 'cancel'>,
    private readonly calendars: Pick<CentreCalendars, 'ofMany'>,
    private readonly applications: Pick<ApplicationsService, 'byIds' | 'contactOf'>,
    private readonly notify: Pick<NotificationService, 'composeTemplate' | 'queueIn'>,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  /** Booked applications whose appointment day has passed become Expired: how many. */
  expire(): Promise<number> {
    const now = this.clock.now();
    return this.store.expire(dayOf(now), BOOKING_UPKEEP, now);
  }

  /** Cancels the Booked appointments from today on (in the scope) whose slot is gone: how many. */
  async cancelGone(scope: SlotsGone): Promise<number> {
    const upcoming: UpcomingScope = { fromDay: dayOf(this.clock.now()), ...scope };
    let cancelled = 0;
    let after: string | undefined;
    for (;;) {
      const page = await this.store.upcoming(upcoming, after, PAGE);
      if (!page.length) break;
      after = page.at(-1)!.preRegId;
      const days = page.map((booking) => booking.date).sort();
      const schedules = await this.calendars.ofMany([...new Set(page.map((booking) => booking.centreId))], days[0]!, days.at(-1)!);
      for (const booking of page) {
        const schedule = schedules.get(booking.centreId);
        if (schedule && hasSlot(schedule, booking.date, booking)) continue;
        if (await this.cancelOne(booking)) cancelled++;
      }
      if (page.length < PAGE) break;
    }
    if (cancelled) this.logger.info({ cancelled, scope }, 'appointments whose slot is gone were cancelled');
    return cancelled;
  }

  private async cancelOne(booking: BookedSlot): Promise<boolean> {
    const [application] = await this.applications.byIds([booking.preRegId]);
    if (application?.statusCode !== STATUS.booked) return false;
    const notices = await this.noticesOf(application, booking);
    const outcome = await this.store.cancel(booking.preRegId, BOOKING_UPKEEP, this.clock.now(), {
      expected: booking,
      then: async (tx: JobTx) => {
        for (const notice of notices) await this.notify.queueIn(tx, notice);
      },
    });
    return outcome.kind === 'cancelled';
  }

  /** The resident's notices (e-mail and SMS, to the contact of their application), composed before the transaction that records them. */
  private async noticesOf(application: ApplicationRow, booking: BookedSlot): Promise<ComposedNotification[]> {
    try {
      const contact = await this.applications.contactOf(application);
      const variables = {
        name: contact.name ?? '',
        prid: application.id,
        date: booking.date,
        from: booking.fromTime,
        to: booking.toTime,
        centre: booking.centreId,
      };
      const notices: ComposedNotification[] = [];
      if (contact.email) notices.push(await this.notify.composeTemplate('email', contact.email, CANCELLED_TEMPLATE, contact.langCode, variables));
      if (contact.phone) notices.push(await this.notify.composeTemplate('sms', contact.phone, CANCELLED_TEMPLATE, contact.langCode, variables));
      return notices;
    } catch (error) {
      // The appointment is cancelled all the same: its slot is gone. Only the code is logged, never the resident's data.
      this.logger.warn({ preRegId: application.id, reason: (error as { code?: string }).code ?? 'unreadable' }, 'no notice for a cancelled appointment');
      return [];
    }
  }
}
