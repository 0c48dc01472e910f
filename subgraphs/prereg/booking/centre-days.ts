import type { CentreService } from '../../masterdata/centres/service.js';
import type { HolidayService } from '../../masterdata/holidays/service.js';
import { pairKey } from '../../masterdata/keys.js';
import { bookingErrors } from '../errors.js';
import { dayOf, slotsOfDay, weekDayOf, type SlotTime } from './calendar.js';

/** The most slots a centre's day may make: what the graph declares a day to hold (a 24-hour day of 15-minute slots). */
export const MAX_SLOTS_PER_DAY = 96;
/** The language a centre is looked up in first; master data falls back to any language it has (its hours are the same in all). */
const LOOKUP_LANGUAGE = 'eng';
const HOLIDAY_PAGE = 100;

/** A centre's calendar as master data gives it now: nothing of it is stored by booking. */
export interface CentreSchedule {
  centreId: string;
  /** its kiosks: how many appointments each slot takes */
  capacity: number;
  /** the slots of each working day */
  slots: readonly SlotTime[];
  /** the week days it works (MON..SUN) */
  working: ReadonlySet<string>;
  /** the holidays of its holiday location among the days asked for */
  holidays: ReadonlySet<string>;
}

/** Whether the centre opens that day: a working week day that is no holiday. */
export const opensOn = (schedule: CentreSchedule, day: string): boolean => schedule.working.has(weekDayOf(day)) && !schedule.holidays.has(day);

/** The slots the centre has on a day: none on a holiday or a day it does not work. */
export const slotsOn = (schedule: CentreSchedule, day: string): readonly SlotTime[] => (opensOn(schedule, day) ? schedule.slots : []);

/** Whether the centre has this slot on that day (the times as booking keeps them, HH:mm:ss). */
export const hasSlot = (schedule: CentreSchedule, day: string, slot: SlotTime): boolean =>
  slotsOn(schedule, day).some((offered) => offered.fromTime === slot.fromTime && offered.toTime === slot.toTime);

/**
 * Centres' calendars read from master data: the centre (live and active),
 * its working days and the holidays of its holiday location, read for a
 * range of days. Slots are computed from them, never stored, so a change in
 * master data is seen at the next read.
 */
export class CentreCalendars {
  constructor(
    private readonly centres: Pick<CentreService, 'byKeys' | 'workingDaysOfMany'>,
    private readonly holidays: Pick<HolidayService, 'list'>,
  ) {}

  /** One centre between two days: PRG_BOOK_RCI_035 when it is unknown or inactive, PRG_BOOK_RCI_015 when it makes no slots. */
  async of(centreId: string, fromDay: string, toDay: string): Promise<CentreSchedule> {
    const schedule = (await this.ofMany([centreId], fromDay, toDay)).get(centreId);
    if (!schedule) throw bookingErrors.unknownCentre();
    // A day of more slots than the graph declares is refused whole, never cut short.
    if (!schedule.slots.length || !schedule.working.size || schedule.capacity < 1 || schedule.slots.length > MAX_SLOTS_PER_DAY) throw bookingErrors.noSlots();
    return schedule;
  }

  /** The calendars of centres between two days, in a few queries; a centre gone or inactive has none. */
  async ofMany(centreIds: readonly string[], fromDay: string, toDay: string): Promise<Map<string, CentreSchedule>> {
    const found = await this.centres.byKeys(centreIds.map((id) => pairKey(id, LOOKUP_LANGUAGE)));
    const rows = [...found.values()].filter((row) => row.isActive);
    const weeks = await this.centres.workingDaysOfMany(rows.map((row) => pairKey(row.id, row.langCode)));
    const holidays = new Map<string, Set<string>>();
    for (const location of new Set(rows.map((row) => row.holidayLocationCode))) holidays.set(location, await this.holidaysOf(location, fromDay, toDay));
    return new Map(
      rows.map((row) => [
        row.id,
        {
          centreId: row.id,
          capacity: row.numberOfKiosks,
          slots: slotsOfDay(row),
          working: new Set((weeks.get(pairKey(row.id, row.langCode)) ?? []).filter((day) => day.isWorking).map((day) => day.dayCode)),
          holidays: holidays.get(row.holidayLocationCode) ?? new Set(),
        },
      ]),
    );
  }

  /** The active holidays of a location between two days (any language's row counts). */
  private async holidaysOf(locationCode: string, from: string, to: string): Promise<Set<string>> {
    const days = new Set<string>();
    let after: string | null = null;
    for (;;) {
      const page = await this.holidays.list({ first: HOLIDAY_PAGE, after }, { locationCode, from, to, isActive: true });
      for (const edge of page.edges) days.add(dayOf(edge.node.holidayDate));
      if (!page.pageInfo.hasNextPage) return days;
      after = page.pageInfo.endCursor;
    }
  }
}
