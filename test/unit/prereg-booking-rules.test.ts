// Booking's rules over in-memory fakes, without a database: the slots of a centre's day (MOSIP's
// generator), the calendar read from master data, the slots offered with their places, a booking's
// checks in order, and the safety net cancelling only appointments whose slot is gone.
import { describe, expect, it } from 'vitest';
import type { Connection } from '../../lib/graph/connection.js';
import { createLogger } from '../../lib/log.js';
import { ManualClock } from '../../lib/time.js';
import type { CentreRow } from '../../subgraphs/masterdata/centres/service.js';
import type { HolidayRow } from '../../subgraphs/masterdata/holidays/rows.js';
import { pairKey } from '../../subgraphs/masterdata/keys.js';
import type { ApplicationRow } from '../../subgraphs/prereg/applications/types.js';
import { hasStarted, isDay, normalTime, slotsOfDay, wholeHoursUntil, withinSpan } from '../../subgraphs/prereg/booking/calendar.js';
import { CentreCalendars, MAX_SLOTS_PER_DAY } from '../../subgraphs/prereg/booking/centre-days.js';
import { BookingService, type BookingStore } from '../../subgraphs/prereg/booking/service.js';
import type { BookOutcome, CancelOutcome } from '../../subgraphs/prereg/booking/storage.js';
import type { BookedSlot } from '../../subgraphs/prereg/booking/types.js';
import { BookingUpkeep } from '../../subgraphs/prereg/booking/upkeep.js';
import { applicationErrors } from '../../subgraphs/prereg/errors.js';
import type { ApplicationStatus } from '../../subgraphs/prereg/statuses.js';

const HOURS = { centerStartTime: '09:00:00', centerEndTime: '17:00:00', lunchStartTime: '13:00:00', lunchEndTime: '14:00:00', perKioskProcessTime: '00:15:00' };
/** Saturday 28 November 2026: the days offered start on Monday 30th. */
const NOW = new Date('2026-11-28T08:00:00.000Z');
const rules = { cancelHours: 0, rebookHours: 0, bookingOffsetDays: 2, availabilityDays: 14 };

const centre = (over: Partial<CentreRow> = {}) =>
  ({ id: '10001', langCode: 'eng', holidayLocationCode: 'KTA', numberOfKiosks: 3, isActive: true, ...HOURS, ...over }) as CentreRow;
const WEEK = ['MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT', 'SUN'];

/** Master data's centres and holidays, as the calendar reads them; holidays paged `pageSize` at a time. */
function masterData(rows: CentreRow[], holidays: string[] = [], working = ['MON', 'TUE', 'WED', 'THU', 'FRI'], pageSize = 100) {
  const pages: number[] = [];
  const calendars = new CentreCalendars(
    {
      byKeys: (keys) => Promise.resolve(new Map(keys.flatMap((key) => rows.filter((row) => pairKey(row.id, 'eng') === key).map((row) => [key, row] as const)))),
      workingDaysOfMany: (keys) =>
        Promise.resolve(
          new Map(
            keys.map((key) => [key, WEEK.map((dayCode, i) => ({ dayCode, name: dayCode, order: i + 1, isWorking: working.includes(dayCode) }))] as never),
          ),
        ),
    },
    {
      list: (page, filter) => {
        const start = Number(page.after ?? 0);
        pages.push(start);
        const days = holidays.filter((d) => d >= filter!.from! && d <= filter!.to!);
        const slice = days.slice(start, start + pageSize);
        return Promise.resolve({
          edges: slice.map((d) => ({ cursor: '', node: { holidayDate: new Date(`${d}T00:00:00Z`) } as HolidayRow })),
          pageInfo: { hasNextPage: start + pageSize < days.length, hasPreviousPage: false, startCursor: null, endCursor: String(start + pageSize) },
          totalCount: () => Promise.resolve(days.length),
        } satisfies Connection<HolidayRow>);
      },
    },
  );
  return { calendars, pages };
}

describe("a centre's day", () => {
  it('is cut into slots of the process time before and after lunch, each ending by its bound', () => {
    const slots = slotsOfDay(HOURS);
    expect(slots).toHaveLength(28);
    expect([slots[0], slots[15], slots[16], slots.at(-1)]).toEqual([
      { fromTime: '09:00:00', toTime: '09:15:00' },
      { fromTime: '12:45:00', toTime: '13:00:00' },
      { fromTime: '14:00:00', toTime: '14:15:00' },
      { fromTime: '16:45:00', toTime: '17:00:00' },
    ]);
    expect(slotsOfDay({ ...HOURS, lunchStartTime: '00:00:00', lunchEndTime: '00:00:00' })).toHaveLength(32);
    expect(slotsOfDay({ ...HOURS, perKioskProcessTime: '00:25:00' }).map((s) => s.toTime)).toEqual([
      ...['09:25:00', '09:50:00', '10:15:00', '10:40:00', '11:05:00', '11:30:00', '11:55:00', '12:20:00', '12:45:00'],
      ...['14:25:00', '14:50:00', '15:15:00', '15:40:00', '16:05:00', '16:30:00', '16:55:00'],
    ]);
    expect(slotsOfDay({ ...HOURS, centerStartTime: '00:00:00', centerEndTime: '00:00:00' })).toEqual([]);
    expect(slotsOfDay({ ...HOURS, perKioskProcessTime: '00:00:00' })).toEqual([]);
    expect(slotsOfDay({ ...HOURS, centerStartTime: null })).toEqual([]);
  });

  it('reads days and times strictly, and measures "started" and the time spans on the platform clock in UTC', () => {
    expect([normalTime('9:05'), normalTime('09:05:07'), normalTime('24:00:00'), normalTime('10:61')]).toEqual(['09:05:00', '09:05:07', undefined, undefined]);
    expect([isDay('2026-12-01'), isDay('2026-02-30'), isDay('2026-1-01')]).toEqual([true, false, false]);
    expect(hasStarted('2026-11-28', '07:59:00', NOW)).toBe(true);
    expect(hasStarted('2026-11-28', '08:00:00', NOW)).toBe(false);
    expect(hasStarted('2026-11-27', '23:00:00', NOW)).toBe(true);
    expect(wholeHoursUntil('2026-11-29', '09:30:00', NOW)).toBe(25);
    expect([
      withinSpan(0, '2026-11-28', '09:00:00', NOW),
      withinSpan(26, '2026-11-29', '09:30:00', NOW),
      withinSpan(25, '2026-11-29', '09:30:00', NOW),
    ]).toEqual([false, true, false]);
  });
});

describe("a centre's calendar", () => {
  it('is refused for a centre unknown or inactive (PRG_BOOK_RCI_035) and one that makes no slots (PRG_BOOK_RCI_015)', async () => {
    const of = (rows: CentreRow[], working?: string[]) => masterData(rows, [], working).calendars.of('10001', '2026-11-30', '2026-12-06');
    await expect(of([])).rejects.toMatchObject({ code: 'PRG_BOOK_RCI_035' });
    await expect(of([centre({ isActive: false })])).rejects.toMatchObject({ code: 'PRG_BOOK_RCI_035' });
    await expect(of([centre()], [])).rejects.toMatchObject({ code: 'PRG_BOOK_RCI_015' });
    await expect(of([centre({ numberOfKiosks: 0 })])).rejects.toMatchObject({ code: 'PRG_BOOK_RCI_015' });
    await expect(of([centre({ perKioskProcessTime: '00:00:00' })])).rejects.toMatchObject({ code: 'PRG_BOOK_RCI_015' });
    // More slots a day than the graph declares: refused, never cut short.
    expect(slotsOfDay({ ...HOURS, perKioskProcessTime: '00:01:00' }).length).toBeGreaterThan(MAX_SLOTS_PER_DAY);
    await expect(of([centre({ perKioskProcessTime: '00:01:00' })])).rejects.toMatchObject({ code: 'PRG_BOOK_RCI_015' });
  });

  it('reads every page of the holidays of the days asked for', async () => {
    const days = ['2026-12-01', '2026-12-02', '2026-12-03', '2027-03-01'];
    const { calendars, pages } = masterData([centre()], days, undefined, 2);
    const schedule = await calendars.of('10001', '2026-11-30', '2026-12-06');
    expect([...schedule.holidays]).toEqual(['2026-12-01', '2026-12-02', '2026-12-03']);
    expect(pages).toEqual([0, 2]);
  });
});

/** A booking store in memory: the places taken by slot key, the bookings by application, what book and cancel were asked. */
function fakeStore(outcome: BookOutcome = { kind: 'booked' }) {
  const asked: unknown[] = [];
  const store: BookingStore = {
    usage: () => Promise.resolve(new Map([['10001\u00002026-11-30\u000009:00:00', 2]])),
    bookingOf: () => Promise.resolve(null),
    bookingsOf: () => Promise.resolve([]),
    book: (plans) => {
      asked.push(plans);
      return Promise.resolve(outcome);
    },
    cancel: () => Promise.reject(new Error('not faked')),
    ofCentre: () => Promise.reject(new Error('not faked')),
  };
  return { store, asked };
}

function service(status: ApplicationStatus, outcome?: BookOutcome) {
  const { calendars } = masterData([centre()], ['2026-12-02']);
  const { store, asked } = fakeStore(outcome);
  const application = { id: '22222222222222', createdBy: 'amina', statusCode: status } as ApplicationRow;
  const applications = {
    reach: (_: unknown, id: string) => (id === application.id ? Promise.resolve(application) : Promise.reject(applicationErrors.notOwned())),
  };
  const reach = { of: () => Promise.reject(new Error('not faked')), requireListed: () => Promise.reject(new Error('not faked')) };
  const booking = new BookingService(store, calendars, applications, { rules: () => rules as never }, reach, new ManualClock(NOW));
  return { booking, asked };
}

const caller = { subject: 'amina', roles: ['INDIVIDUAL'] };
const request = (over: Record<string, string> = {}) => ({
  preRegistrationId: '22222222222222',
  registrationCenterId: '10001',
  appointmentDate: '2026-11-30',
  timeSlotFrom: '09:00:00',
  timeSlotTo: '09:15:00',
  ...over,
});

describe('the slots offered', () => {
  it('are the days from today + the offset, holidays and days not worked empty, each slot with its places left', async () => {
    const calendar = await service('Pending_Appointment').booking.slots('10001', 7);
    expect(calendar.days.map((d) => `${d.date}${d.holiday ? ' holiday' : ''}`)).toEqual([
      '2026-11-30',
      '2026-12-01',
      '2026-12-02 holiday',
      '2026-12-03',
      '2026-12-04',
      '2026-12-05 holiday',
      '2026-12-06 holiday',
    ]);
    expect(calendar.days[0]!.slots[0]).toEqual({ date: '2026-11-30', fromTime: '09:00:00', toTime: '09:15:00', capacity: 3, available: 1 });
    expect(calendar.days[0]!.slots[1]!.available).toBe(3);
    expect(calendar.days[2]!.slots).toEqual([]);
  });
});

describe('a booking', () => {
  it('is checked in order: the application, its status, the times, started, the centre, the slot', async () => {
    const refused = (status: ApplicationStatus, over: Record<string, string>, code: string) =>
      expect(service(status).booking.book(caller, [request(over)])).rejects.toMatchObject({ code });
    await refused('Pending_Appointment', { preRegistrationId: '33333333333333' }, 'PRG_PAM_APP_017');
    await refused('Application_Incomplete', {}, 'PRG_BOOK_RCI_036');
    await refused('Prefetched', {}, 'PRG_PAM_APP_022');
    await refused('Pending_Appointment', { timeSlotFrom: '09:15:00' }, 'PRG_BOOK_RCI_003');
    await refused('Pending_Appointment', { appointmentDate: '2026-11-27' }, 'PRG_BOOK_RCI_031');
    await refused('Pending_Appointment', { registrationCenterId: '99999' }, 'PRG_BOOK_RCI_035');
    await refused('Pending_Appointment', { appointmentDate: '2026-12-02' }, 'PRG_BOOK_RCI_002');
    await refused('Pending_Appointment', { appointmentDate: '2026-12-14' }, 'PRG_BOOK_RCI_002');
    await refused('Pending_Appointment', { timeSlotFrom: '13:00:00', timeSlotTo: '13:15:00' }, 'PRG_BOOK_RCI_002');
  });

  it('asks the store for every application at once, and answers what the store refused', async () => {
    const { booking, asked } = service('Cancelled');
    const [booked] = await booking.book(caller, [request()]);
    expect(booked).toMatchObject({ preRegistrationId: '22222222222222', registrationCenterId: '10001', timeSlotFrom: '09:00:00' });
    expect(asked).toEqual([[expect.objectContaining({ preRegId: '22222222222222', capacity: 3, slot: expect.objectContaining({ date: '2026-11-30' }) })]]);
    const slot = { centreId: '10001', date: '2026-11-30', fromTime: '09:00:00', toTime: '09:15:00' };
    await expect(service('Booked', { kind: 'full', slot }).booking.book(caller, [request()])).rejects.toMatchObject({ code: 'PRG_BOOK_RCI_002' });
    await expect(service('Booked', { kind: 'changed', preRegId: 'x', status: null }).booking.book(caller, [request()])).rejects.toMatchObject({
      code: 'PRG_PAM_APP_005',
    });
    await expect(service('Booked', { kind: 'changed', preRegId: 'x', status: 'Consumed' }).booking.book(caller, [request()])).rejects.toMatchObject({
      code: 'PRG_PAM_APP_022',
    });
    await expect(service('Booked').booking.book(caller, [request(), request()])).rejects.toMatchObject({ code: 'PRG_CORE_REQ_004' });
  });
});

describe('the safety net', () => {
  it('cancels only appointments whose slot is gone, with a notice on each channel of the contact, recorded in the same transaction', async () => {
    const { calendars } = masterData([centre()], ['2026-12-02']);
    const at = (preRegId: string, date: string, fromTime = '09:00:00', toTime = '09:15:00'): BookedSlot => ({
      preRegId,
      centreId: '10001',
      date,
      fromTime,
      toTime,
      bookedAt: NOW,
    });
    const upcoming = [at('1', '2026-11-30'), at('2', '2026-12-02'), at('3', '2026-12-01', '13:00:00', '13:15:00'), at('4', '2026-12-05')];
    const cancelled: string[] = [];
    const queued: string[] = [];
    const upkeep = new BookingUpkeep(
      {
        expire: () => Promise.resolve(0),
        upcoming: (_scope, after) => Promise.resolve(after ? [] : upcoming),
        cancel: async (preRegId, _by, _at, options): Promise<CancelOutcome> => {
          cancelled.push(preRegId);
          await options?.then?.({} as never);
          return { kind: 'cancelled', booking: upcoming.find((b) => b.preRegId === preRegId)! };
        },
      },
      calendars,
      {
        byIds: (ids) => Promise.resolve(ids.map((id) => ({ id, statusCode: 'Booked', langCode: 'fra' }) as ApplicationRow)),
        contactOf: (row) =>
          row.id === '4'
            ? Promise.reject(applicationErrors.notFound())
            : Promise.resolve({ name: 'Salma', email: `${row.id}@example.org`, phone: row.id === '2' ? '9123456789' : null, langCode: 'fra' }),
      },
      {
        composeTemplate: (channel, address, code, langCode) => Promise.resolve({ channel, subject: `${code} ${langCode} ${address}` } as never),
        queueIn: (_tx, composed) => Promise.resolve(void queued.push(`${composed.channel} ${composed.subject}`)),
      },
      new ManualClock(NOW),
      createLogger('silent'),
    );
    expect(await upkeep.cancelGone({})).toBe(3);
    expect(cancelled).toEqual(['2', '3', '4']);
    expect(queued).toEqual([
      'email PREREG_APPOINTMENT_CANCELLED fra 2@example.org',
      'sms PREREG_APPOINTMENT_CANCELLED fra 9123456789',
      'email PREREG_APPOINTMENT_CANCELLED fra 3@example.org',
    ]);
  });
});
