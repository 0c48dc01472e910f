import { expect } from 'vitest';
import { envelopeOf, type TestPlatform } from './platform.js';
import { applicantIdentity, createApplication, preregCall } from './prereg.js';

/** The sample country's centre: 3 kiosks, 09:00-17:00, lunch 13:00-14:00, 15-minute slots, Monday to Friday, holidays of KTA. */
export const SAMPLE_CENTRE = '10001';

export interface SlotChoice {
  centre: string;
  date: string;
  from: string;
  to: string;
}

/** A centre as master data's REST path takes it: like the sample's, in zone KTA, one kiosk, open every day. */
export const centreBody = (id: string, over: Record<string, unknown> = {}) => ({
  id,
  langCode: 'eng',
  name: `Centre ${id}`,
  centerTypeCode: 'REG',
  addressLine1: '1 Main Street',
  latitude: '34.52117',
  longitude: '-6.453275',
  locationCode: 'KTA',
  holidayLocationCode: 'KTA',
  numberOfKiosks: 1,
  perKioskProcessTime: '00:15:00',
  centerStartTime: '09:00:00',
  centerEndTime: '17:00:00',
  lunchStartTime: '13:00:00',
  lunchEndTime: '14:00:00',
  zoneCode: 'KTA',
  isActive: true,
  workingNonWorkingDays: { mon: true, tue: true, wed: true, thu: true, fri: true, sat: true, sun: true },
  ...over,
});

/** Creates (or, with `method` PUT, changes) a centre as the admin. */
export async function writeCentre(t: TestPlatform, admin: Record<string, string>, body: Record<string, unknown>, method = 'POST'): Promise<void> {
  const { json } = await t.request(method, '/v1/masterdata/registrationcenters', { body: envelopeOf(body), headers: admin });
  expect(json.errors, JSON.stringify(json.errors)).toBeNull();
}

/** Adds a holiday of location KTA as the admin. */
export async function addHoliday(t: TestPlatform, admin: Record<string, string>, date: string, name = `Holiday ${date}`): Promise<void> {
  const { json } = await t.request('POST', '/v1/masterdata/holidays', {
    body: envelopeOf({
      locationCode: 'KTA',
      holidayDate: date,
      holidayMonth: date.slice(5, 7),
      holidayYear: date.slice(0, 4),
      holidayName: name,
      holidayDesc: name,
      langCode: 'eng',
      isActive: true,
    }),
    headers: admin,
  });
  expect(json.errors, JSON.stringify(json.errors)).toBeNull();
}

/** A new application of the applicant, Pending_Appointment: its id. */
export async function newApplication(t: TestPlatform, cookie: Record<string, string>, identity: Record<string, unknown> = {}): Promise<string> {
  const { json } = await createApplication(t, cookie, applicantIdentity(identity));
  expect(json.errors, JSON.stringify(json.errors)).toBeNull();
  return json.response.preRegistrationId as string;
}

/** The request of POST /applications/appointment/{id}, as MOSIP's portal sends it. */
export const appointmentOf = (slot: SlotChoice) => ({
  registration_center_id: slot.centre,
  appointment_date: slot.date,
  time_slot_from: slot.from,
  time_slot_to: slot.to,
});

export const book = (t: TestPlatform, cookie: Record<string, string>, preRegId: string, slot: SlotChoice | Record<string, unknown>) =>
  preregCall(t, 'POST', `/applications/appointment/${preRegId}`, {
    id: 'booking.book',
    request: 'centre' in slot ? appointmentOf(slot as SlotChoice) : slot,
    headers: cookie,
  });

/** The slots of a centre that REST lists as free, in order: date, from, to, places left. */
export async function freeSlots(t: TestPlatform, cookie: Record<string, string>, centre: string): Promise<(SlotChoice & { availability: number })[]> {
  const { json } = await preregCall(t, 'GET', `/applications/appointment/slots/availability/${centre}`, { headers: cookie });
  expect(json.errors, JSON.stringify(json.errors)).toBeNull();
  return (json.response.centerDetails as { date: string; timeSlots: { fromTime: string; toTime: string; availability: number }[] }[]).flatMap((day) =>
    day.timeSlots.map((slot) => ({ centre, date: day.date, from: slot.fromTime, to: slot.toTime, availability: slot.availability })),
  );
}

/** The places each slot of a centre holds by its counter, and by its booking rows: they must be equal. */
export async function slotCounts(t: TestPlatform, centre: string): Promise<{ counted: Record<string, number>; rows: Record<string, number> }> {
  const { prisma } = t.platform.deps;
  const key = (date: Date, fromTime: string) => `${date.toISOString().slice(0, 10)} ${fromTime}`;
  const usage = await prisma.preRegSlotUsage.findMany({ where: { centreId: centre, booked: { gt: 0 } } });
  const bookings = await prisma.preRegBooking.groupBy({ by: ['date', 'fromTime'], where: { centreId: centre }, _count: { _all: true } });
  return {
    counted: Object.fromEntries(usage.map((row) => [key(row.date, row.fromTime), row.booked])),
    rows: Object.fromEntries(bookings.map((row) => [key(row.date, row.fromTime), row._count._all])),
  };
}

export const codeOf = (answer: { json: { errors?: { errorCode: string }[] | null } }) => answer.json.errors?.[0]?.errorCode;
