// Appointments through REST and GraphQL on the sample country (centre 10001: 3 kiosks, 09:00-17:00,
// lunch 13:00-14:00, 15-minute slots, Monday to Friday): a booking end to end, several at once, every
// PRG_BOOK_RCI code of the area (each refusal changing nothing), another applicant's PRG_PAM_APP_017.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectRejected, TIMESTAMP } from '../support/assertions.js';
import { bearer, cookieHeader, startTestPlatform, type TestPlatform } from '../support/platform.js';
import { applicant, preregCall } from '../support/prereg.js';
import { appointmentOf, book, centreBody, codeOf, freeSlots, newApplication, SAMPLE_CENTRE, slotCounts, writeCentre } from '../support/prereg-booking.js';
import { refusalCode } from '../support/refusals.js';

const SHIPPED = readFileSync('config/prereg/prereg.properties', 'utf8');
let dir: string;
let configFile: string;
let t: TestPlatform;
let amina: Record<string, string>;
let bilal: Record<string, string>;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'prereg-booking-'));
  configFile = path.join(dir, 'prereg.properties');
  writeFileSync(configFile, SHIPPED);
  t = await startTestPlatform({ PLATFORM_SAMPLE_DATA: 'true', PREREG_CONFIG_FILE: configFile });
  const admin = cookieHeader(await t.adminToken());
  await writeCentre(t, admin, centreBody('ONE1'));
  await writeCentre(t, admin, centreBody('OFF1', { isActive: false }));
  await writeCentre(
    t,
    admin,
    centreBody('NOSLOT1', { workingNonWorkingDays: { mon: false, tue: false, wed: false, thu: false, fri: false, sat: false, sun: false } }),
  );
  amina = await applicant(t, 'amina@example.org');
  bilal = await applicant(t, '9123400001');
});
afterAll(async () => {
  await t?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The shipped configuration with these keys changed, read again by the platform. */
async function configure(over: Record<string, string> = {}): Promise<void> {
  const lines = SHIPPED.split('\n').filter((line) => !Object.keys(over).some((key) => line.startsWith(`${key}=`)));
  writeFileSync(configFile, [...lines, ...Object.entries(over).map(([key, value]) => `${key}=${value}`)].join('\n'));
  expect((await preregCall(t, 'GET', '/login/refreshconfig')).json.response).toBe('success');
}

const statusOf = async (preRegId: string) =>
  (await preregCall(t, 'GET', `/applications/prereg/status/${preRegId}`, { headers: amina })).json.response.statusCode as string;
const cancel = (preRegId: string, cookie = amina) => preregCall(t, 'PUT', `/applications/appointment/${preRegId}`, { headers: cookie });
const remove = (preRegId: string, cookie = amina) => preregCall(t, 'DELETE', `/applications/appointment?preRegistrationId=${preRegId}`, { headers: cookie });
const readBooking = (preRegId: string, cookie = amina) => preregCall(t, 'GET', `/applications/appointment/${preRegId}`, { headers: cookie });
const bookMany = (requests: unknown[], cookie = amina) =>
  preregCall(t, 'POST', '/applications/appointment', { id: 'booking.book', request: { bookingRequest: requests }, headers: cookie });
const places = async (slot: { centre: string; date: string; from: string }) =>
  (await freeSlots(t, amina, slot.centre)).find((free) => free.date === slot.date && free.from === slot.from)?.availability ?? 0;
const day = (offset: number) => new Date(t.clock.now().getTime() + offset * 86_400_000).toISOString().slice(0, 10);

const BOOK = `mutation($id: String!, $centre: String!, $date: Date!, $from: TimeOfDay!, $to: TimeOfDay!) {
  bookPreRegistrationAppointment(input: { preRegistrationId: $id, registrationCenterId: $centre, appointmentDate: $date, timeSlotFrom: $from, timeSlotTo: $to }) {
    booking { preRegistrationId } userErrors { field code message } } }`;
const graphBook = (cookie: Record<string, string>, id: string | null, slot: { centre?: string | null; date?: string | null; from: string; to: string }) =>
  t.graphql(BOOK, { id, centre: slot.centre, date: slot.date, from: slot.from, to: slot.to }, cookie);

describe('an appointment', () => {
  it('is listed, booked, read, re-booked and cancelled; its place comes and goes with it', async () => {
    const preRegId = await newApplication(t, amina);
    const [first, second] = await freeSlots(t, amina, SAMPLE_CENTRE);
    expect(first).toMatchObject({ centre: SAMPLE_CENTRE, from: '09:00:00', to: '09:15:00', availability: 3 });
    const graph = await t.graphql(
      'query($c: String!) { preRegistrationSlots(registrationCenterId: $c, first: 7) { registrationCenterId days { date holiday slots { date fromTime toTime capacity available } } } }',
      { c: SAMPLE_CENTRE },
      amina,
    );
    const days = graph.data.preRegistrationSlots.days as { holiday: boolean; slots: { capacity: number; fromTime: string }[] }[];
    expect(days).toHaveLength(7);
    // A week: Saturday and Sunday are not worked; a working day has 16 slots before lunch and 12 after, of 3 places.
    expect(days.filter((d) => d.holiday).map((d) => d.slots.length)).toEqual([0, 0]);
    for (const open of days.filter((d) => !d.holiday)) expect(open.slots.map((s) => s.capacity)).toEqual(Array(28).fill(3));
    expect(days.find((d) => !d.holiday)!.slots.map((s) => s.fromTime)).not.toContain('13:00:00');

    expect((await book(t, amina, preRegId, first!)).json.response).toEqual({ bookingMessage: 'Appointment booked successfully' });
    expect(await statusOf(preRegId)).toBe('Booked');
    expect((await readBooking(preRegId)).json.response).toEqual(appointmentOf(first!));
    expect(await places(first!)).toBe(2);
    const listed = (await preregCall(t, 'GET', '/applications/prereg', { headers: amina })).json.response.basicDetails as { preRegistrationId: string }[];
    expect(listed.find((row) => row.preRegistrationId === preRegId)).toMatchObject({
      statusCode: 'Booked',
      bookingMetadata: { registration_center_id: SAMPLE_CENTRE, appointment_date: first!.date, time_slot_from: '09:00:00', time_slot_to: '09:15:00' },
    });
    const viewed = await t.graphql(
      'query($id: String!) { preRegistration(preRegistrationId: $id) { statusCode booking { appointmentDate timeSlotFrom timeSlotTo bookedAt } centre { id name } } }',
      { id: preRegId },
      amina,
    );
    expect(viewed.data.preRegistration).toMatchObject({
      statusCode: 'Booked',
      booking: { appointmentDate: first!.date, timeSlotFrom: '09:00:00', timeSlotTo: '09:15:00', bookedAt: expect.stringMatching(TIMESTAMP) },
      centre: { id: SAMPLE_CENTRE, name: 'Center A Ben Mansour' },
    });

    // Re-booked: the old place returns in the same transaction.
    expect(codeOf(await book(t, amina, preRegId, second!))).toBeUndefined();
    expect([await places(first!), await places(second!)]).toEqual([3, 2]);
    const { counted, rows } = await slotCounts(t, SAMPLE_CENTRE);
    expect(counted).toEqual(rows);

    const cancelled = await cancel(preRegId);
    expect(cancelled.json.response).toEqual({ transactionId: expect.stringMatching(/^[0-9a-f-]{36}$/), message: 'Appointment cancelled successfully' });
    expect(await statusOf(preRegId)).toBe('Cancelled');
    expect(await places(second!)).toBe(3);
    expect(codeOf(await readBooking(preRegId))).toBe('PRG_BOOK_RCI_013');

    // A cancelled application books again; DELETE cancels as PUT does.
    expect(codeOf(await book(t, amina, preRegId, first!))).toBeUndefined();
    const deleted = await remove(preRegId);
    expect(deleted.json.response).toEqual({
      preRegistrationId: preRegId,
      deletedBy: expect.stringMatching(/^prereg-/),
      deletedDateTime: expect.stringMatching(TIMESTAMP),
    });
    expect(await statusOf(preRegId)).toBe('Cancelled');
    expect(await places(first!)).toBe(3);
  });

  it('answers a GraphQL booking and its cancellation with the application they changed, for a cache to update', async () => {
    const preRegId = await newApplication(t, amina);
    const [slot] = await freeSlots(t, amina, SAMPLE_CENTRE);
    const booked = await t.graphql(
      `mutation($id: String!, $centre: String!, $date: Date!, $from: TimeOfDay!, $to: TimeOfDay!) {
        bookPreRegistrationAppointment(input: { preRegistrationId: $id, registrationCenterId: $centre, appointmentDate: $date, timeSlotFrom: $from, timeSlotTo: $to }) {
          booking { preRegistrationId application { preRegistrationId statusCode booking { timeSlotFrom } } } userErrors { code } } }`,
      { id: preRegId, centre: slot!.centre, date: slot!.date, from: slot!.from, to: slot!.to },
      amina,
    );
    expect(booked.data.bookPreRegistrationAppointment).toEqual({
      booking: { preRegistrationId: preRegId, application: { preRegistrationId: preRegId, statusCode: 'Booked', booking: { timeSlotFrom: slot!.from } } },
      userErrors: [],
    });
    const cancelled = await t.graphql(
      'mutation($id: String!) { cancelPreRegistrationAppointment(input: { preRegistrationId: $id }) { cancelledBooking { application { preRegistrationId statusCode booking { bookedAt } } } userErrors { code } } }',
      { id: preRegId },
      amina,
    );
    expect(cancelled.data.cancelPreRegistrationAppointment).toEqual({
      cancelledBooking: { application: { preRegistrationId: preRegId, statusCode: 'Cancelled', booking: null } },
      userErrors: [],
    });
  });

  it('books several applications at once, all of them or none', async () => {
    const [a, b] = [await newApplication(t, amina), await newApplication(t, amina)];
    const [one, two] = await freeSlots(t, amina, 'ONE1');
    const request = (preRegistrationId: string, slot: typeof one) => ({ preRegistrationId, ...appointmentOf(slot!) });
    // Both on the one-kiosk slot: the second has no place, so neither is booked.
    await expectRejected(t, () => bookMany([request(a, one), request(b, one)]), 'PRG_BOOK_RCI_002');
    await expectRejected(
      t,
      () => bookMany([request(a, one), { ...request(b, two), time_slot_from: '13:00:00', time_slot_to: '13:15:00' }]),
      'PRG_BOOK_RCI_002',
    );
    await expectRejected(t, () => bookMany([request(a, one), request(a, two)]), 'PRG_CORE_REQ_004');
    const booked = await bookMany([request(a, one), request(b, two)]);
    expect(booked.json.response).toEqual({
      bookingStatusResponse: [{ bookingMessage: 'Appointment booked successfully' }, { bookingMessage: 'Appointment booked successfully' }],
    });
    expect([await statusOf(a), await statusOf(b)]).toEqual(['Booked', 'Booked']);
    expect([await places(one!), await places(two!)]).toEqual([0, 0]);
  });

  it('answers every booking code of the area, changing nothing', async () => {
    const preRegId = await newApplication(t, amina);
    const [slot] = await freeSlots(t, amina, SAMPLE_CENTRE);
    const wire = appointmentOf(slot!);
    const refused = (request: Record<string, unknown>, code: string) => expectRejected(t, () => book(t, amina, preRegId, request), code);
    await refused({ ...wire, registration_center_id: undefined }, 'PRG_BOOK_RCI_007');
    await refused({ ...wire, registration_center_id: ' ' }, 'PRG_BOOK_RCI_007');
    await refused({ ...wire, appointment_date: undefined }, 'PRG_BOOK_RCI_008');
    await refused({ ...wire, time_slot_from: '25:00:00' }, 'PRG_BOOK_RCI_003');
    await refused({ ...wire, time_slot_to: undefined }, 'PRG_BOOK_RCI_003');
    await refused({ ...wire, time_slot_from: wire.time_slot_to, time_slot_to: wire.time_slot_from }, 'PRG_BOOK_RCI_003');
    await refused({ ...wire, appointment_date: '2026-02-30' }, 'PRG_BOOK_RCI_031');
    await refused({ ...wire, appointment_date: day(-1) }, 'PRG_BOOK_RCI_031');
    await refused({ ...wire, appointment_date: day(0), time_slot_from: '00:00:00', time_slot_to: '00:15:00' }, 'PRG_BOOK_RCI_031');
    await refused({ ...wire, time_slot_from: '13:00:00', time_slot_to: '13:15:00' }, 'PRG_BOOK_RCI_002');
    await refused({ ...wire, time_slot_from: '09:00:00', time_slot_to: '09:30:00' }, 'PRG_BOOK_RCI_002');
    // A Saturday of the days offered (centre 10001 does not work it), and a day after them.
    const saturday = Array.from({ length: 7 }, (_, i) => day(2 + i)).find((d) => new Date(`${d}T00:00:00Z`).getUTCDay() === 6)!;
    await refused({ ...wire, appointment_date: saturday }, 'PRG_BOOK_RCI_002');
    await refused({ ...wire, appointment_date: day(40) }, 'PRG_BOOK_RCI_002');
    // Tomorrow at a centre open every day: a slot not yet started, but before the days offered (today + 2).
    await refused(
      { ...wire, registration_center_id: 'ONE1', appointment_date: day(1), time_slot_from: '16:45:00', time_slot_to: '17:00:00' },
      'PRG_BOOK_RCI_002',
    );
    for (const centre of ['99999', 'OFF1']) {
      await refused({ ...wire, registration_center_id: centre }, 'PRG_BOOK_RCI_035');
      await expectRejected(t, () => preregCall(t, 'GET', `/applications/appointment/slots/availability/${centre}`, { headers: amina }), 'PRG_BOOK_RCI_035');
    }
    await refused({ ...wire, registration_center_id: 'NOSLOT1' }, 'PRG_BOOK_RCI_015');
    await expectRejected(t, () => preregCall(t, 'GET', '/applications/appointment/slots/availability/NOSLOT1', { headers: amina }), 'PRG_BOOK_RCI_015');
    await expectRejected(t, () => bookMany([{ ...wire }]), 'PRG_BOOK_RCI_006');
    await expectRejected(t, () => preregCall(t, 'DELETE', '/applications/appointment', { headers: amina }), 'PRG_BOOK_RCI_006');
    await expectRejected(t, () => readBooking(preRegId), 'PRG_BOOK_RCI_013');
    await expectRejected(t, () => cancel(preRegId), 'PRG_BOOK_RCI_018');
    await expectRejected(t, () => remove(preRegId), 'PRG_BOOK_RCI_018');

    // An application whose mandatory documents are missing.
    await configure({ 'preregistration.documentupload.mandatory.categories': 'POA' });
    const incomplete = await newApplication(t, amina).finally(() => configure());
    expect(await statusOf(incomplete)).toBe('Application_Incomplete');
    await expectRejected(t, () => book(t, amina, incomplete, slot!), 'PRG_BOOK_RCI_036');

    // The same rules through GraphQL.
    const graphRefused = async (answer: Promise<unknown>, code: string) => {
      const before = await t.snapshot();
      expect(refusalCode(await answer)).toBe(code);
      expect(await t.snapshot()).toEqual(before);
    };
    await graphRefused(graphBook(amina, preRegId, { ...slot!, date: day(-1) }), 'PRG_BOOK_RCI_031');
    await graphRefused(graphBook(amina, preRegId, { ...slot!, from: '13:00:00', to: '13:15:00' }), 'PRG_BOOK_RCI_002');
    // What the graph's types require is refused before anything runs (REST answers PRG_BOOK_RCI_006/007/008, above).
    await graphRefused(graphBook(amina, preRegId, { ...slot!, centre: null }), 'BAD_USER_INPUT');
    await graphRefused(graphBook(amina, preRegId, { ...slot!, date: null }), 'BAD_USER_INPUT');
    await graphRefused(graphBook(amina, null, slot!), 'BAD_USER_INPUT');
    await graphRefused(graphBook(amina, incomplete, slot!), 'PRG_BOOK_RCI_036');
    await graphRefused(t.graphql('{ preRegistrationSlots(registrationCenterId: "99999") { registrationCenterId } }', {}, amina), 'PRG_BOOK_RCI_035');
    await graphRefused(
      t.graphql('query($id: String!) { preRegistrationBooking(preRegistrationId: $id) { bookedAt } }', { id: preRegId }, amina),
      'PRG_BOOK_RCI_013',
    );
    await graphRefused(
      t.graphql(
        'mutation($id: String!) { cancelPreRegistrationAppointment(input: { preRegistrationId: $id }) { userErrors { code } } }',
        { id: preRegId },
        amina,
      ),
      'PRG_BOOK_RCI_018',
    );
  });

  it('refuses cancelling and re-booking within the configured hours (PRG_BOOK_RCI_026)', async () => {
    const preRegId = await newApplication(t, amina);
    const [slot, other] = await freeSlots(t, amina, 'ONE1');
    expect(codeOf(await book(t, amina, preRegId, slot!))).toBeUndefined();
    // Every day offered lies within 2,000 hours.
    await configure({ 'preregistration.timespan.cancel': '2000', 'preregistration.timespan.rebook': '2000' });
    try {
      await expectRejected(t, () => cancel(preRegId), 'PRG_BOOK_RCI_026', /cancelling cannot be done within 2000 hours/);
      await expectRejected(t, () => remove(preRegId), 'PRG_BOOK_RCI_026');
      await expectRejected(t, () => book(t, amina, preRegId, other!), 'PRG_BOOK_RCI_026', /re-booking cannot be done within 2000 hours/);
    } finally {
      await configure();
    }
    expect(codeOf(await cancel(preRegId))).toBeUndefined();
  });

  it('gives another applicant PRG_PAM_APP_017 on every call naming the application, by REST and GraphQL', async () => {
    const preRegId = await newApplication(t, amina);
    const [slot, other] = await freeSlots(t, amina, SAMPLE_CENTRE);
    expect(codeOf(await book(t, amina, preRegId, slot!))).toBeUndefined();
    const refused = (send: () => Promise<{ status: number; json: unknown }>) => expectRejected(t, send, 'PRG_PAM_APP_017');
    await refused(() => book(t, bilal, preRegId, other!));
    await refused(() => bookMany([{ preRegistrationId: preRegId, ...appointmentOf(other!) }], bilal));
    await refused(() => readBooking(preRegId, bilal));
    await refused(() => cancel(preRegId, bilal));
    await refused(() => remove(preRegId, bilal));
    const graph = async (query: string, variables: Record<string, unknown>) => {
      const before = await t.snapshot();
      expect(refusalCode(await t.graphql(query, variables, bilal)), query).toBe('PRG_PAM_APP_017');
      expect(await t.snapshot()).toEqual(before);
    };
    const vars = { id: preRegId, centre: other!.centre, date: other!.date, from: other!.from, to: other!.to };
    await graph(BOOK, vars);
    await graph(
      `mutation($id: String!, $centre: String!, $date: Date!, $from: TimeOfDay!, $to: TimeOfDay!) { bookPreRegistrationAppointments(input: { appointments: [
        { preRegistrationId: $id, registrationCenterId: $centre, appointmentDate: $date, timeSlotFrom: $from, timeSlotTo: $to }] }) { bookings { bookedAt } userErrors { code } } }`,
      vars,
    );
    await graph('query($id: String!) { preRegistrationBooking(preRegistrationId: $id) { bookedAt } }', { id: preRegId });
    await graph('mutation($id: String!) { cancelPreRegistrationAppointment(input: { preRegistrationId: $id }) { userErrors { code } } }', { id: preRegId });
    await graph('query($id: String!) { preRegistration(preRegistrationId: $id) { booking { bookedAt } centre { id } } }', { id: preRegId });
    expect(await statusOf(preRegId)).toBe('Booked');
  });

  it('shows registration staff the slots, and nothing of an applicant’s', async () => {
    const preRegId = await newApplication(t, amina);
    const officer = bearer((await t.clientToken(['REGISTRATION_OFFICER'])).token);
    expect((await freeSlots(t, officer, SAMPLE_CENTRE)).length).toBeGreaterThan(0);
    const [slot] = await freeSlots(t, amina, SAMPLE_CENTRE);
    await expectRejected(t, () => book(t, officer, preRegId, slot!), 'KER-ATH-403');
    await expectRejected(t, () => readBooking(preRegId, officer), 'KER-ATH-403');
    await expectRejected(t, () => cancel(preRegId, officer), 'KER-ATH-403');
  });
});
