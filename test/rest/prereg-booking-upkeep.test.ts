// What booking does later: a holiday made on a booked day, or a centre closed, cancels the day's
// appointments (their places returned) and tells each resident; the hourly safety net cancels those
// whose slot went without an event; appointments whose day has passed expire.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RECONCILE_EVERY_MS } from '../../subgraphs/prereg/booking/jobs.js';
import { lastMessage } from '../support/outbox.js';
import { cookieHeader, startTestPlatform, type TestPlatform } from '../support/platform.js';
import { applicant, preregCall } from '../support/prereg.js';
import { addHoliday, book, centreBody, codeOf, freeSlots, newApplication, SAMPLE_CENTRE, slotCounts, writeCentre } from '../support/prereg-booking.js';

let t: TestPlatform;
let admin: Record<string, string>;
let amina: Record<string, string>;
beforeAll(async () => {
  t = await startTestPlatform({ PLATFORM_SAMPLE_DATA: 'true' });
  admin = cookieHeader(await t.adminToken());
  amina = await applicant(t, 'amina@example.org');
});
afterAll(async () => {
  await t?.close();
});

/** The application's status and whether it still has a booking, read from the tables (the applicant's token may have expired with the clock). */
async function stateOf(preRegId: string) {
  const row = await t.platform.deps.prisma.preRegApplication.findUniqueOrThrow({ where: { id: preRegId }, include: { booking: true } });
  return { status: row.statusCode, booked: row.booking !== null };
}

describe('appointments whose slot is gone', () => {
  it('are cancelled when a holiday is made on their day, and each resident is told by e-mail and SMS', async () => {
    const email = 'holiday-notice@example.org';
    const phone = '9876543210';
    const preRegId = await newApplication(t, amina, { email, phone });
    const unaffected = await newApplication(t, amina);
    const slots = await freeSlots(t, amina, SAMPLE_CENTRE);
    const slot = slots.at(-1)!;
    const otherDay = slots.find((free) => free.date !== slot.date)!;
    expect(codeOf(await book(t, amina, preRegId, slot))).toBeUndefined();
    expect(codeOf(await book(t, amina, unaffected, otherDay))).toBeUndefined();

    await addHoliday(t, admin, slot.date, 'Founding Day');
    await t.platform.jobs.drain();

    expect(await stateOf(preRegId)).toEqual({ status: 'Cancelled', booked: false });
    expect(await stateOf(unaffected)).toEqual({ status: 'Booked', booked: true });
    const { counted, rows } = await slotCounts(t, SAMPLE_CENTRE);
    expect(counted).toEqual(rows);
    const slotsAfter = await preregCall(t, 'GET', `/applications/appointment/slots/availability/${SAMPLE_CENTRE}`, { headers: amina });
    expect(slotsAfter.json.response.centerDetails.find((d: { date: string }) => d.date === slot.date)).toEqual({
      date: slot.date,
      holiday: true,
      timeSlots: [],
    });

    const notice = await lastMessage(t, email);
    expect(notice.subject).toBe('Your appointment has been cancelled');
    expect(notice.body).toContain(preRegId);
    expect(notice.body).toContain(slot.date);
    const sms = await lastMessage(t, phone);
    expect(sms.channel).toBe('SMS');
    expect(sms.body).toContain(preRegId);
    // Nothing of the resident in a subject: no name, no address.
    expect(notice.subject).not.toMatch(/Salma|Quietbrook|Cedar/);
  });

  it('are cancelled when their centre is deactivated or deleted', async () => {
    const [closed, deleted] = [await newApplication(t, amina, { email: 'closed-centre@example.org' }), await newApplication(t, amina)];
    for (const [centre, preRegId] of [
      ['CLOSE1', closed],
      ['DEL1', deleted],
    ] as const) {
      await writeCentre(t, admin, centreBody(centre));
      const [slot] = await freeSlots(t, amina, centre);
      expect(codeOf(await book(t, amina, preRegId, slot!))).toBeUndefined();
    }
    await writeCentre(t, admin, centreBody('CLOSE1', { isActive: false }), 'PUT');
    expect((await t.request('DELETE', '/v1/masterdata/registrationcenters/DEL1', { headers: admin })).json.errors).toBeNull();
    await t.platform.jobs.drain();
    expect([await stateOf(closed), await stateOf(deleted)]).toEqual(Array(2).fill({ status: 'Cancelled', booked: false }));
    expect((await lastMessage(t, 'closed-centre@example.org')).body).toContain(closed);
    expect(await slotCounts(t, 'CLOSE1')).toEqual({ counted: {}, rows: {} });
    expect(await slotCounts(t, 'DEL1')).toEqual({ counted: {}, rows: {} });
  });

  it('are cancelled by the hourly safety net when the centre’s hours change (no event)', async () => {
    await writeCentre(t, admin, centreBody('NET1'));
    const [early, late] = [await newApplication(t, amina), await newApplication(t, amina)];
    const slots = await freeSlots(t, amina, 'NET1');
    const [morning, evening] = [slots[0]!, slots.find((free) => free.date === slots[0]!.date && free.from === '16:45:00')!];
    expect(codeOf(await book(t, amina, early, morning))).toBeUndefined();
    expect(codeOf(await book(t, amina, late, evening))).toBeUndefined();
    await writeCentre(t, admin, centreBody('NET1', { centerEndTime: '16:00:00' }), 'PUT');
    await t.platform.jobs.drain();
    expect(await stateOf(late)).toEqual({ status: 'Booked', booked: true });

    t.clock.advance(RECONCILE_EVERY_MS + 60_000);
    await t.platform.jobs.drain();
    expect(await stateOf(late)).toEqual({ status: 'Cancelled', booked: false });
    expect(await stateOf(early)).toEqual({ status: 'Booked', booked: true });
  });
});

describe('appointments whose day has passed', () => {
  it('expire by the recurring job, their booking kept', async () => {
    const preRegId = await newApplication(t, amina);
    const [slot] = await freeSlots(t, amina, SAMPLE_CENTRE);
    expect(codeOf(await book(t, amina, preRegId, slot!))).toBeUndefined();
    await t.platform.jobs.drain();
    expect(await stateOf(preRegId)).toEqual({ status: 'Booked', booked: true });

    // The day after the appointment: the expiry job is due again.
    t.clock.set(new Date(`${slot!.date}T23:59:00.000Z`));
    t.clock.advance(60 * 60_000);
    await t.platform.jobs.drain();
    expect(await stateOf(preRegId)).toEqual({ status: 'Expired', booked: true });
  });
});
