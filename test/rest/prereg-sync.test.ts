// Pre-registration's sync on the sample country (centre and machine 10001): a centre's officer syncs
// its appointments and fetches each application for its machine (the ZIP sealed for the machine's key,
// opened here with its private key); registration reports what it took in, and a job moves it to the
// consumed history; a processed packet that names a pre-registration consumes it. Every code of the area.
import { constants, createDecipheriv, privateDecrypt, type KeyObject } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readZip } from '../../lib/packet/zip.js';
import { expectRejected } from '../support/assertions.js';
import { machineKeys, tpmKeyRequest } from '../support/machine.js';
import { bearer, cookieHeader, envelopeOf, startTestPlatform, type TestPlatform } from '../support/platform.js';
import { applicant, applicantIdentity, createApplication, PREREG, preregCall, preregEnvelope } from '../support/prereg.js';
import { book as bookSlot, centreBody, freeSlots, slotCounts, writeCentre, type SlotChoice } from '../support/prereg-booking.js';
import { documentRequest, pdfWith, uploadDocument } from '../support/prereg-documents.js';
import { refusalCode } from '../support/refusals.js';
import { registrationClient } from '../support/regproc.js';
import { userLogin } from '../support/users.js';
import { waitFor } from '../support/wait.js';

let t: TestPlatform;
let admin: Record<string, string>;
let officer: Record<string, string>;
let otherOfficer: Record<string, string>;
let processor: Record<string, string>;
let amina: Record<string, string>;
let bilal: Record<string, string>;
let machine: { publicKey: KeyObject; privateKey: KeyObject };

const codeOf = (answer: { json: { errors?: { errorCode: string }[] | null } }) => answer.json.errors?.[0]?.errorCode;
const prisma = () => t.platform.deps.prisma;
const audit = () => ({ createdBy: 'test', createdAt: t.clock.now(), changedAt: t.clock.now() });
/** A day `offset` days from the platform's today, yyyy-MM-dd. */
const day = (offset: number) => new Date(t.clock.now().getTime() + offset * 86_400_000).toISOString().slice(0, 10);

/** The sample centre's officer, once an admin has set a password: a registration client's login. */
async function sampleOfficer(): Promise<Record<string, string>> {
  const reset = await t.graphql(
    'mutation { resetPassword(input: { userId: "sample-officer", password: "Officer-password-1" }) { userErrors { code } } }',
    {},
    admin,
  );
  expect(reset.errors).toBeUndefined();
  const login = await t.graphql(
    'mutation { loginWithPassword(input: { userName: "sample-officer", password: "Officer-password-1", appId: "registrationclient" }) { passwordLogin { token } } }',
  );
  return bearer(login.data.loginWithPassword.passwordLogin.token as string);
}

beforeAll(async () => {
  t = await startTestPlatform({ PLATFORM_SAMPLE_DATA: 'true' });
  admin = cookieHeader(await t.adminToken());
  [amina, bilal, officer] = [await applicant(t, 'amina@example.org'), await applicant(t, '9123400001'), await sampleOfficer()];
  // Centre 10002 in the same city, with an officer of its own; a machine of 10001 with no key mapped.
  await writeCentre(t, admin, centreBody('10002'));
  otherOfficer = (await userLogin(t, 'officer-10002', ['REGISTRATION_OFFICER'], 'registrationclient')).bearer;
  await prisma().registrationCenterUser.create({ data: { regCenterId: '10002', userId: 'officer-10002', ...audit() } });
  await prisma().machine.create({ data: { id: '10009', langCode: 'eng', name: 'keyless', regCenterId: '10001', zoneCode: 'KTA', ...audit() } });
  processor = bearer((await t.clientToken(['REGISTRATION_PROCESSOR'], 'registrationprocessor')).token);
  machine = machineKeys();
  const mapped = await t.request('POST', '/v1/syncdata/tpm/publickey', { body: envelopeOf(tpmKeyRequest('10001', machine.publicKey)), headers: admin });
  expect(mapped.json.errors).toBeNull();
});
afterAll(async () => {
  await t?.close();
});

/** A new application of amina's: its id. */
async function application(identity = applicantIdentity()): Promise<string> {
  const created = await createApplication(t, amina, identity);
  expect(created.json.errors).toBeNull();
  return created.json.response.preRegistrationId as string;
}

/** An appointment as the sync answers it: the day, the slot's times (HH:mm:ss) and its start. */
interface Booked {
  date: string;
  fromTime: string;
  toTime: string;
  start: string;
}

/** Books one of amina's applications through booking's path, in the first free slot of `centre` that `pick` takes: the appointment stored. */
async function book(preRegId: string, centre: string, pick: (slot: SlotChoice) => boolean = () => true): Promise<Booked> {
  const slot = (await freeSlots(t, amina, centre)).find((free) => free.availability > 0 && pick(free));
  expect(slot, `a free slot at ${centre}`).toBeDefined();
  const answer = await bookSlot(t, amina, preRegId, slot!);
  expect(answer.json.errors, JSON.stringify(answer.json.errors)).toBeNull();
  const row = await prisma().preRegBooking.findUniqueOrThrow({ where: { preRegId } });
  const date = row.date.toISOString().slice(0, 10);
  return { date, fromTime: row.fromTime, toTime: row.toTime, start: `${date}T${row.fromTime}.000` };
}

const statusOf = async (preRegId: string) => (await prisma().preRegApplication.findUnique({ where: { id: preRegId } }))?.statusCode;
const sync = (request: Record<string, unknown>, headers = officer, extra: Record<string, unknown> = {}) =>
  t.request('POST', `${PREREG}/sync`, { body: preregEnvelope(t, 'datasync', request, extra), headers });
const fetchFor = (preRegId: string, machineId = '10001', headers = officer) => preregCall(t, 'GET', `/sync/${preRegId}/${machineId}`, { headers });
const report = (preRegistrationIds: unknown, headers = processor) =>
  t.request('POST', `${PREREG}/sync/consumedPreRegIds`, { body: preregEnvelope(t, 'datasync.store', { preRegistrationIds }), headers });
const gqlSync = (variables: Record<string, unknown>, headers = officer) =>
  t.graphql(
    'query($c: String!, $f: Date!, $to: Date) { preRegistrationSync(registrationCenterId: $c, fromDate: $f, toDate: $to) { countOfPreRegIds preRegistrationIds { preRegistrationId appointmentDate fromTimeSlot } } }',
    variables,
    headers,
  );

/** MOSIP's client format opened with the machine's private key: RSA-OAEP(key) | IV 12 | AAD 32 | AES-GCM with its tag. */
function unseal(zipBytes: string): Buffer {
  const bytes = Buffer.from(zipBytes, 'base64');
  const key = privateDecrypt({ key: machine.privateKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, bytes.subarray(0, 256));
  const [aad, sealed] = [bytes.subarray(268, 300), bytes.subarray(300)];
  const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(256, 268));
  decipher.setAAD(aad);
  decipher.setAuthTag(sealed.subarray(sealed.length - 16));
  return Buffer.concat([decipher.update(sealed.subarray(0, sealed.length - 16)), decipher.final()]);
}

const entriesOf = async (zip: Buffer) => new Map((await readZip(zip, { maxUncompressedBytes: 10_000_000 })).map((entry) => [entry.name, entry.data]));

describe('the appointments of a centre (POST /sync)', () => {
  it('lists them for its officer and its zone’s admin, each with its slot’s start; never for another centre’s officer or an applicant', async () => {
    const [first, second, elsewhere] = [await application(), await application(), await application()];
    const one = await book(first, '10001');
    const two = await book(second, '10001', (slot) => slot.date > one.date);
    const there = await book(elsewhere, '10002');
    const range = { registrationCenterId: '10001', fromDate: one.date, toDate: two.date };
    const answer = await sync(range);
    expect(answer.json.errors).toBeNull();
    expect(answer.json.id).toBe('platform.pre-registration.datasync');
    expect(answer.json.response).toMatchObject({ countOfPreRegIds: '2', transactionId: expect.any(String) });
    expect(answer.json.response.preRegistrationIds).toEqual({ [first]: one.start, [second]: two.start });
    expect(one.start).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.000$/);
    // toDate left out: the one day.
    const oneDay = await sync({ registrationCenterId: '10001', fromDate: two.date });
    expect(oneDay.json.errors).toBeNull();
    expect(oneDay.json.response.preRegistrationIds).toEqual({ [second]: two.start });
    expect((await sync(range, admin)).json.response.countOfPreRegIds).toBe('2');
    const viaGraphql = await gqlSync({ c: '10001', f: one.date, to: one.date });
    expect(viaGraphql.data.preRegistrationSync).toEqual({
      countOfPreRegIds: 1,
      preRegistrationIds: [{ preRegistrationId: first, appointmentDate: one.date, fromTimeSlot: one.fromTime }],
    });

    for (const caller of [otherOfficer, bilal]) {
      await expectRejected(t, () => sync(range, caller), 'KER-ATH-403');
      expect(refusalCode(await gqlSync({ c: '10001', f: one.date, to: two.date }, caller))).toBe('KER-ATH-403');
    }
    expect((await sync({ registrationCenterId: '10002', fromDate: there.date }, otherOfficer)).json.response.preRegistrationIds).toEqual({
      [elsewhere]: there.start,
    });
  });

  it('refuses a centre missing or unknown, a day not yyyy-MM-dd, days reversed, an empty range and a bad envelope, changing nothing', async () => {
    const range = { registrationCenterId: '10001', fromDate: day(200), toDate: day(201) };
    const cases: [Record<string, unknown>, string][] = [
      [{ ...range, registrationCenterId: undefined }, 'PRG_DATA_SYNC_009'],
      [{ ...range, registrationCenterId: ' ' }, 'PRG_DATA_SYNC_009'],
      [{ ...range, registrationCenterId: '99999' }, 'PRG_DATA_SYNC_009'],
      [{ ...range, fromDate: undefined }, 'PRG_CORE_REQ_019'],
      [{ ...range, fromDate: day(200).replace(/-/g, '/') }, 'PRG_CORE_REQ_019'],
      [{ ...range, toDate: '2030-02-30' }, 'PRG_CORE_REQ_019'],
      [{ ...range, fromDate: day(202) }, 'PRG_CORE_REQ_020'],
      [range, 'PRG_BOOK_RCI_032'],
    ];
    for (const [request, code] of cases) await expectRejected(t, () => sync(request), code);
    await expectRejected(t, () => sync(range, officer, { id: 'platform.pre-registration.other' }), 'PRG_PAM_CORE_001');
    await expectRejected(t, () => sync(range, officer, { version: '2.0' }), 'PRG_PAM_CORE_002');
    await expectRejected(t, () => sync(range, officer, { requesttime: undefined }), 'PRG_PAM_CORE_003');
    await expectRejected(t, () => sync(range, officer, { requesttime: new Date(t.clock.now().getTime() - 86_400_000).toISOString() }), 'PRG_CORE_REQ_013');
    // The graph's own doors answer the same codes (a day that is not one is refused by the Date scalar itself).
    // A centre the graph's types require is refused before anything runs (REST answers PRG_DATA_SYNC_009, above).
    expect(refusalCode(await gqlSync({ f: day(200) }))).toBe('BAD_USER_INPUT');
    expect(refusalCode(await gqlSync({ c: '99999', f: day(200) }))).toBe('PRG_DATA_SYNC_009');
    expect(refusalCode(await gqlSync({ c: '10001', f: day(202), to: day(200) }))).toBe('PRG_CORE_REQ_020');
    expect(refusalCode(await gqlSync({ c: '10001', f: day(200), to: day(201) }))).toBe('PRG_BOOK_RCI_032');
    expect(refusalCode(await gqlSync({ c: '10001', f: '2030/01/01' }))).toBe('BAD_USER_INPUT');
  });
});

describe('one application for a registration client (GET /sync/{id}/{machineId})', () => {
  it('seals the ZIP of the identity and documents for the machine; the walk-in’s application becomes Prefetched', async () => {
    const booked = await application();
    expect((await uploadDocument(t, amina, booked, documentRequest(), { file: { name: 'lease.pdf', bytes: pdfWith('lease') } })).json.errors).toBeNull();
    const appointment = await book(booked, '10001');
    const answer = await fetchFor(booked);
    expect(answer.json.errors).toBeNull();
    const fetched = answer.json.response;
    expect(fetched).toMatchObject({
      'pre-registration-id': booked,
      'registration-client-id': '10001',
      'appointment-date': appointment.date,
      'from-time-slot': appointment.fromTime,
      'to-time-slot': appointment.toTime,
      'zip-filename': booked,
    });
    const entries = await entriesOf(unseal(fetched['zip-bytes']));
    expect([...entries.keys()]).toEqual(['ID.json', 'POA_lease.pdf']);
    expect(entries.get('POA_lease.pdf')).toEqual(pdfWith('lease'));
    expect(JSON.parse(entries.get('ID.json')!.toString('utf8'))).toEqual({
      identity: { ...applicantIdentity(), proofOfAddress: { value: 'POA_lease', type: 'Rental contract', format: 'pdf', refNumber: 'RC-1' } },
    });
    expect(await statusOf(booked)).toBe('Booked');

    const viaGraphql = await t.graphql(
      'query($id: String!, $m: String!) { preRegistrationForMachine(preRegistrationId: $id, machineId: $m) { registrationCenterId appointmentDate encrypted zipBytes } }',
      { id: booked, m: '10001' },
      officer,
    );
    expect(viaGraphql.data.preRegistrationForMachine).toMatchObject({ registrationCenterId: '10001', appointmentDate: appointment.date, encrypted: true });
    expect((await entriesOf(unseal(viaGraphql.data.preRegistrationForMachine.zipBytes))).has('ID.json')).toBe(true);

    const walkIn = await application();
    const fetchedWalkIn = (await fetchFor(walkIn)).json.response;
    expect(fetchedWalkIn).toMatchObject({ 'registration-client-id': '10001', 'appointment-date': null, 'from-time-slot': null });
    expect(await statusOf(walkIn)).toBe('Prefetched');
  });

  it('refuses another centre’s officer, an applicant, a machine unknown or without a key, an unknown id and one booked elsewhere', async () => {
    const booked = await application();
    await book(booked, '10001');
    const elsewhere = await application();
    await book(elsewhere, '10002');
    await expectRejected(t, () => fetchFor(booked, '10001', otherOfficer), 'KER-ATH-403');
    await expectRejected(t, () => fetchFor(booked, '10001', bilal), 'KER-ATH-403');
    await expectRejected(t, () => fetchFor(booked, 'nope'), 'PRG_DATA_SYNC_018');
    await expectRejected(t, () => fetchFor(booked, '10009'), 'PRG_DATA_SYNC_018');
    await expectRejected(t, () => fetchFor('70000000000000'), 'PRG_PAM_APP_005');
    await expectRejected(t, () => fetchFor(elsewhere), 'PRG_DATA_SYNC_009');
    const viaGraphql = (id: string, headers: Record<string, string>) =>
      t.graphql('query($id: String!) { preRegistrationForMachine(preRegistrationId: $id, machineId: "10001") { zipBytes } }', { id }, headers);
    expect(refusalCode(await viaGraphql(booked, otherOfficer))).toBe('KER-ATH-403');
    expect(refusalCode(await viaGraphql(booked, bilal))).toBe('KER-ATH-403');
    expect(refusalCode(await viaGraphql(elsewhere, officer))).toBe('PRG_DATA_SYNC_009');
  });

  it('answers PRG_DATA_SYNC_007 for an identity that does not open', async () => {
    const broken = await application();
    await book(broken, '10001');
    await prisma().preRegApplication.update({ where: { id: broken }, data: { demographic: 'VER_R2not-sealed' } });
    await expectRejected(t, () => fetchFor(broken), 'PRG_DATA_SYNC_007');
  });

  it('gives an admin the booked application unsealed (GET /sync/{id}); PRG_DATA_SYNC_016 without an appointment', async () => {
    const booked = await application();
    await book(booked, '10001');
    const answer = await preregCall(t, 'GET', `/sync/${booked}`, { headers: admin });
    expect(answer.json.response['registration-client-id']).toBe('10001');
    const identity = JSON.parse((await entriesOf(Buffer.from(answer.json.response['zip-bytes'], 'base64'))).get('ID.json')!.toString('utf8'));
    expect(identity.identity.fullName).toEqual(applicantIdentity().fullName);
    const unbooked = await application();
    await expectRejected(t, () => preregCall(t, 'GET', `/sync/${unbooked}`, { headers: admin }), 'PRG_DATA_SYNC_016');
    const viaGraphql = (id: string, headers: Record<string, string>) =>
      t.graphql('query($id: String!) { preRegistrationArchive(preRegistrationId: $id) { registrationCenterId encrypted } }', { id }, headers);
    expect((await viaGraphql(booked, admin)).data.preRegistrationArchive).toEqual({ registrationCenterId: '10001', encrypted: false });
    expect(refusalCode(await viaGraphql(unbooked, admin))).toBe('PRG_DATA_SYNC_016');
    // Staff fetch through their machine; applicants not at all.
    for (const caller of [officer, bilal]) {
      await expectRejected(t, () => preregCall(t, 'GET', `/sync/${booked}`, { headers: caller }), 'KER-ATH-403');
      expect(refusalCode(await viaGraphql(booked, caller))).toBe('KER-ATH-403');
    }
  });
});

describe('consumed pre-registrations', () => {
  it('stores each id once, marks it Consumed, and the job moves it whole to the history, its documents’ files removed', async () => {
    const taken = await application();
    expect((await uploadDocument(t, amina, taken)).json.errors).toBeNull();
    const appointment = await book(taken, '10001');
    const documentKeys = (await prisma().preRegDocument.findMany({ where: { preRegId: taken } })).map((row) => row.objectKey);
    const { demographic, demographicHash } = await prisma().preRegApplication.findUniqueOrThrow({ where: { id: taken } });
    expect(documentKeys).toHaveLength(1);

    const answer = await report([taken, '79999999999999']);
    expect(answer.json.errors).toBeNull();
    expect(answer.json.id).toBe('platform.pre-registration.datasync.store');
    expect(answer.json.response).toMatchObject({ countOfPreRegIds: '1', preRegistrationIds: [taken] });
    const moved = await waitFor(async () => (await prisma().preRegConsumed.findUnique({ where: { preRegId: taken } }))?.movedAt ?? undefined, 'the move');
    const history = await prisma().preRegConsumed.findUniqueOrThrow({ where: { preRegId: taken } });
    expect(history).toMatchObject({
      reportedBy: expect.stringMatching(/^client-/),
      centreId: '10001',
      fromTime: appointment.fromTime,
      langCode: 'eng',
      demographic,
      demographicHash,
    });
    expect(history.date?.toISOString().slice(0, 10)).toBe(appointment.date);
    expect(await prisma().preRegApplication.findUnique({ where: { id: taken } })).toBeNull();
    expect(await prisma().preRegDocument.count({ where: { preRegId: taken } })).toBe(0);
    for (const key of documentKeys) expect(await t.platform.deps.objects.get(key)).toBeNull();
    // Its place went back to its slot: each slot still counts exactly its bookings.
    const counts = await slotCounts(t, '10001');
    expect(counts.counted).toEqual(counts.rows);

    // Reported again: answered the same, its first report kept.
    expect((await report([taken])).json.response).toMatchObject({ countOfPreRegIds: '1', preRegistrationIds: [taken] });
    expect((await prisma().preRegConsumed.findUniqueOrThrow({ where: { preRegId: taken } })).movedAt).toEqual(moved);
    await expectRejected(t, () => fetchFor(taken), 'PRG_DATA_SYNC_022');
    const afterwards = await sync({ registrationCenterId: '10001', fromDate: appointment.date });
    expect(afterwards.json.response?.preRegistrationIds ?? {}).not.toHaveProperty(taken);
    expect(codeOf(await preregCall(t, 'GET', `/applications/prereg/${taken}`, { headers: amina }))).toBe('PRG_PAM_APP_005');
  });

  it('lets a centre report only what it may take in, by REST and GraphQL; refuses an empty or malformed list', async () => {
    const booked = await application();
    await book(booked, '10001');
    expect((await report([booked], otherOfficer)).json.response).toMatchObject({ countOfPreRegIds: '0', preRegistrationIds: [] });
    expect(await statusOf(booked)).toBe('Booked');
    await expectRejected(t, () => report([booked], bilal), 'KER-ATH-403');
    for (const ids of [[], undefined, [12], ['x'.repeat(65)]]) await expectRejected(t, () => report(ids), 'PRG_DATA_SYNC_011');
    const reported = (ids: unknown, headers: Record<string, string>) =>
      t.graphql(
        'mutation($ids: [String!]!) { reportConsumedPreRegistrations(input: { preRegistrationIds: $ids }) { consumedPreRegistrations { countOfPreRegIds } userErrors { code } } }',
        { ids },
        headers,
      );
    expect(refusalCode(await reported([], officer))).toBe('PRG_DATA_SYNC_011');
    expect(refusalCode(await reported([booked], bilal))).toBe('KER-ATH-403');
    const viaGraphql = await t.graphql(
      'mutation($ids: [String!]!) { reportConsumedPreRegistrations(input: { preRegistrationIds: $ids }) { consumedPreRegistrations { countOfPreRegIds preRegistrationIds } userErrors { code } } }',
      { ids: [booked] },
      officer,
    );
    expect(viaGraphql.data.reportConsumedPreRegistrations.consumedPreRegistrations).toEqual({ countOfPreRegIds: 1, preRegistrationIds: [booked] });
    expect(['Consumed', undefined]).toContain(await statusOf(booked));
  });

  it('consumes the application a processed packet names, only at the centre it is booked at', async () => {
    const client = await registrationClient(t, admin);
    const [here, there] = [await application(), await application()];
    await book(here, '10001');
    await book(there, '10002');
    for (const [seed, preRegistrationId] of [
      ['sync-packet-here', here],
      ['sync-packet-there', there],
    ] as const) {
      const built = client.build(seed, { packet: { preRegistrationId } });
      await client.submit(built);
      expect(await client.settle(built.rid)).toBe('PROCESSED');
    }
    await waitFor(async () => (await prisma().preRegConsumed.findUnique({ where: { preRegId: here } }))?.movedAt ?? undefined, 'the packet’s consumption');
    // Both packets' consumption jobs have run: the second one left its application as it was.
    const consumptions = { kind: 'prereg.consumed.registration', payload: { path: ['preRegId'], equals: there } };
    await waitFor(async () => (await prisma().platformJob.count({ where: { ...consumptions, state: 'DONE' } })) === 1, 'the second consumption job');
    expect((await prisma().preRegConsumed.findUniqueOrThrow({ where: { preRegId: here } })).centreId).toBe('10001');
    expect(await prisma().preRegConsumed.findUnique({ where: { preRegId: there } })).toBeNull();
    expect(await statusOf(there)).toBe('Booked');
  });
});
