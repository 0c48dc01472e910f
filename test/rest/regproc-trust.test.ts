// Trust in the registration chain (issue 30): who may change an identity. On the sample country
// (centre and machine 10001 with its staff) and a second centre 10002 with its own officer and
// supervisor, as an attacker at the second centre would try: an UPDATE that rewrites another
// centre's resident, an upload of the request handler's types, packets naming people who did not
// make them, RIDs of another centre, and a packet the database cannot store as it is.
import { beforeAll, describe, expect, it } from 'vitest';
import { buildCbeff } from '../../lib/packet/cbeff.js';
import { makeRid } from '../../lib/packet/format.js';
import { buildPacketZip, sealPacket, syncRecordOf, syncRequestBody } from '../../lib/packet/write.js';
import { sampleResident, type SampleResident } from '../../tools/registration/sample-resident.js';
import { envelopeOf, type TestPlatform, useTestPlatform } from '../support/platform.js';
import { REGPROC, registrationClient, type BuiltPacket, type RegistrationClient } from '../support/regproc.js';
import { userLogin } from '../support/users.js';

let t: TestPlatform;
let admin: Record<string, string>;
useTestPlatform({ PLATFORM_SAMPLE_DATA: 'true' }, (platform, adminCookie) => {
  t = platform;
  admin = adminCookie;
});

/** The sample centre's client (as the admin) and the second centre's (as its officer). */
let centreA: RegistrationClient;
let centreB: RegistrationClient;
let officerB: Record<string, string>;
const B = { centre: '10002', machine: '10002' };
const MAKERS_B = { officerId: 'officer-b', supervisorId: 'supervisor-b' };

beforeAll(async () => {
  const send = async (path: string, body: unknown) => {
    const { json } = await t.request('POST', path, { body: envelopeOf(body), headers: admin });
    expect(json.errors, JSON.stringify(json.errors)).toBeNull();
  };
  await send('/v1/masterdata/registrationcenters', {
    langCode: 'eng',
    centerTypeCode: 'REG',
    locationCode: 'KTA',
    holidayLocationCode: 'KTA',
    zoneCode: 'KTA',
    id: B.centre,
    name: 'Second centre',
  });
  await send('/v1/masterdata/machines', {
    langCode: 'eng',
    serialNum: 'SN2',
    machineSpecId: '1001',
    zoneCode: 'KTA',
    id: B.machine,
    name: 'machine-10002',
    regCenterId: B.centre,
    macAddress: 'M2',
  });
  officerB = (await userLogin(t, 'officer-b', ['REGISTRATION_OFFICER'], 'registrationclient')).bearer;
  await userLogin(t, 'supervisor-b', ['REGISTRATION_SUPERVISOR'], 'registrationclient');
  await send('/v1/masterdata/usercentermapping', { userId: 'officer-b', regCenterId: B.centre });
  await send('/v1/masterdata/usercentermapping', { userId: 'supervisor-b', regCenterId: B.centre });
  centreA = await registrationClient(t, admin);
  centreB = await registrationClient(t, officerB, B);
});

/** Each registration's transactions, `type:status[:subStatus]`, oldest first. */
async function transactionsOf(rid: string): Promise<string[]> {
  const rows = await t.platform.deps.prisma.registrationTransaction.findMany({ where: { rid }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
  return rows.map((row) => [row.transactionTypeCode, row.statusCode, row.subStatusCode].filter(Boolean).join(':'));
}

const registrationOf = (rid: string) => t.platform.deps.prisma.registration.findUniqueOrThrow({ where: { rid } });

/** Submits a built packet and waits for its final status. */
async function run(client: RegistrationClient, built: BuiltPacket, registrationType = 'NEW'): Promise<string | undefined> {
  await client.submit(built, { registrationType });
  return client.settle(built.rid);
}

/** A new resident of the sample centre, processed: its UIN and identity row. */
async function enrolled(seed: string, options: { resident?: SampleResident } = {}) {
  const built = centreA.build(seed, options);
  expect(await run(centreA, built)).toBe('PROCESSED');
  const row = (await t.platform.deps.services.identities.byRegistration(built.rid))!;
  return { built, uin: await t.platform.deps.services.identities.uinOfRow(row), row };
}

const storedIdentity = async (uin: string) => t.platform.deps.services.identities.identityOf((await t.platform.deps.services.identities.byUin(uin))!);
/** The messages to an address, newest first: an e-mail's subject, an SMS's body. */
const subjectsTo = async (to: string) =>
  ((await t.graphql('query($to: String) { outbox(to: $to) { subject body } }', { to }, admin)).data.outbox as { subject: string | null; body: string }[]).map(
    (message) => message.subject ?? message.body,
  );

describe('a packet that changes an identity', () => {
  it("from another centre with the attacker's biometrics and contact ends REJECTED at biometric authentication; the identity is unchanged", async () => {
    const victim = await enrolled('trust-victim');
    const attacker = sampleResident('trust-attacker');
    const built = centreB.build('trust-attack', {
      resident: attacker,
      packet: { ...MAKERS_B, registrationType: 'UPDATE', identity: { UIN: victim.uin, email: 'attacker@example.org', phone: '6999999999' } },
    });
    expect(await run(centreB, built, 'UPDATE')).toBe('REJECTED');
    expect(await transactionsOf(built.rid)).toContain('BIOMETRIC_AUTHENTICATION:REJECTED:RPR-BAU-FAILED-001');
    const stored = await storedIdentity(victim.uin);
    expect(stored.email).toBe(victim.built.resident.identity.email);
    expect(stored.phone).toBe(victim.built.resident.identity.phone);
    expect(await subjectsTo('attacker@example.org')).toEqual([]);
    // The stored biometrics are still the resident's own.
    const record = await t.platform.deps.services.identities.read({ subject: 'test', roles: ['REGISTRATION_PROCESSOR'] }, { uin: victim.uin }, 'bio');
    expect(Buffer.from(record.documents.find((file) => file.category === 'individualBiometrics')!.value, 'base64')).toEqual(victim.built.resident.cbeff);
  });

  it('without biometrics ends REJECTED, and the identity is unchanged', async () => {
    const resident = await enrolled('trust-nobio');
    const built = centreA.build('trust-nobio-update', {
      packet: { registrationType: 'UPDATE', identity: { UIN: resident.uin, email: 'elsewhere@example.org' }, cbeff: null },
    });
    expect(await run(centreA, built, 'UPDATE')).toBe('REJECTED');
    expect(await transactionsOf(built.rid)).toContain('BIOMETRIC_AUTHENTICATION:REJECTED:RPR-BAU-FAILED-001');
    expect((await storedIdentity(resident.uin)).email).toBe(resident.built.resident.identity.email);
  });

  it("carrying the resident's own biometrics is PROCESSED without adjudication; the previous e-mail and phone are told of the change", async () => {
    const resident = await enrolled('trust-genuine');
    const before = resident.built.resident.identity;
    const built = centreA.build('trust-genuine-update', {
      resident: resident.built.resident,
      packet: { registrationType: 'UPDATE', identity: { UIN: resident.uin, email: 'new-address@example.org', phone: '6111111111' } },
    });
    const final = await run(centreA, built, 'UPDATE');
    const transactions = await transactionsOf(built.rid);
    expect(final, `${transactions.join(', ')} ${(await registrationOf(built.rid)).lastError}`).toBe('PROCESSED');
    expect(transactions).toContain('BIOMETRIC_AUTHENTICATION:SUCCESS:RPR-BAU-SUCCESS-001');
    expect(transactions).toContain('BIOGRAPHIC_VERIFICATION:SUCCESS');
    expect(transactions.some((row) => row.startsWith('MANUAL_ADJUDICATION'))).toBe(false);
    expect((await storedIdentity(resident.uin)).email).toBe('new-address@example.org');
    expect(await subjectsTo('new-address@example.org')).toEqual(['Your identity has been updated']);
    expect(await subjectsTo(before.email as string)).toEqual(['The contact details of your identity have changed', 'Your UIN has been generated']);
    expect(await subjectsTo(before.phone as string)).toEqual([expect.stringMatching(/changed the contact details of your identity/)]);
    // The biometrics it brought are the identity's now, under its reference.
    const { bioRefId } = await registrationOf(built.rid);
    expect((await t.platform.deps.services.identities.byUin(resident.uin))?.biometricReferenceId).toBe(bioRefId);
  });

  it("still flags a match with anyone else: the other resident is the only candidate, the identity's own registration is not", async () => {
    const resident = await enrolled('trust-mixed');
    const other = await enrolled('trust-other');
    // The resident's fingers and irises, and the other resident's face.
    const birs = [...resident.built.resident.biometrics.slice(0, -1), other.built.resident.biometrics.at(-1)!];
    const built = centreA.build('trust-mixed-update', {
      packet: { registrationType: 'UPDATE', identity: { UIN: resident.uin }, cbeff: buildCbeff(birs) },
    });
    await centreA.submit(built, { registrationType: 'UPDATE' });
    expect(await centreA.reachStage(built.rid, 'MANUAL_ADJUDICATION')).toBe('MANUAL_ADJUDICATION');
    const matches = await t.platform.deps.prisma.manualVerification.findMany({ where: { rid: built.rid } });
    expect(matches.map((match) => match.matchedRid)).toEqual([other.built.rid]);
  });
});

describe("the request handler's registration types", () => {
  it('are refused in a sync (RPR-RGS-015), and nothing is recorded', async () => {
    const resident = await enrolled('trust-deactivate');
    for (const registrationType of ['DEACTIVATED', 'ACTIVATED', 'RES_UPDATE', 'RES_REPRINT']) {
      const built = centreB.build(`trust-${registrationType}`, { packet: { ...MAKERS_B, registrationType, identity: { UIN: resident.uin } } });
      const answer = await t.request('POST', `${REGPROC}/registrationstatus/sync`, {
        raw: syncRequestBody([syncRecordOf(built.rid, built.sealed, { registrationType })], await registrationCertificate(), t.clock.now()),
        headers: { ...officerB, 'Center-Machine-RefId': '10002_10002', timestamp: t.clock.now().toISOString() },
      });
      expect(answer.json.errors).toEqual([
        expect.objectContaining({ registrationId: built.rid, status: 'FAILURE', errorCode: 'RPR-RGS-015', message: expect.stringMatching(/request handler/) }),
      ]);
      expect(await t.platform.deps.prisma.registration.findUnique({ where: { rid: built.rid } })).toBeNull();
    }
  });

  it('uploaded against a registration a client synced before this rule, end REJECTED at validation; the identity stays ACTIVATED', async () => {
    const resident = await enrolled('trust-deactivate-2');
    const built = centreB.build('trust-deactivated-upload', { packet: { ...MAKERS_B, registrationType: 'DEACTIVATED', identity: { UIN: resident.uin } } });
    await centreB.sync([syncRecordOf(built.rid, built.sealed, { registrationType: 'UPDATE' })]);
    // A row of a client's sync that already names the type, as one synced before the sync refused it.
    await t.platform.deps.prisma.registration.update({ where: { rid: built.rid }, data: { registrationType: 'DEACTIVATED' } });
    expect((await centreB.upload(`${built.rid}.zip`, built.sealed)).json.errors).toBeNull();
    expect(await centreB.settle(built.rid)).toBe('REJECTED');
    expect(await transactionsOf(built.rid)).toContain('VALIDATE_PACKET:REJECTED:NOT_FROM_REQUEST_HANDLER');
    expect((await t.platform.deps.services.identities.byUin(resident.uin))?.status).toBe('ACTIVATED');
  });
});

let certificate: string | undefined;
async function registrationCertificate(): Promise<string> {
  certificate ??= (await t.request('GET', '/v1/keymanager/getCertificate?applicationId=REGISTRATION', { headers: admin })).json.response.certificate as string;
  return certificate;
}

describe('who made a packet', () => {
  /** A NEW packet of the sample centre with these makers and the first refusal it ends on. */
  const refusal = async (seed: string, packet: Parameters<RegistrationClient['build']>[1]) => {
    const built = centreA.build(seed, packet);
    expect(await run(centreA, built)).toBe('REJECTED');
    expect(await t.platform.deps.services.identities.byRegistration(built.rid)).toBeNull();
    const rejected = (await transactionsOf(built.rid)).filter((row) => row.includes(':REJECTED'));
    expect(rejected).toHaveLength(1);
    return { rejected: rejected[0], lastError: (await registrationOf(built.rid)).lastError };
  };

  it('refuses officers and supervisors that do not exist', async () => {
    const { rejected } = await refusal('trust-ghost', { packet: { officerId: 'ghost-officer', supervisorId: 'ghost-supervisor' } });
    expect(rejected).toBe('OPERATOR_VALIDATION:REJECTED:RPR-OVM-FAILED-004');
  });

  it('refuses a supervisor who is the officer, or lacks the role, and an officer who is locked', async () => {
    expect((await refusal('trust-self', { packet: { officerId: 'sample-operator', supervisorId: 'sample-operator' } })).rejected).toBe(
      'SUPERVISOR_VALIDATION:REJECTED:RPR-SVM-FAILED-004',
    );
    expect((await refusal('trust-role', { packet: { officerId: 'sample-operator', supervisorId: 'sample-officer' } })).rejected).toBe(
      'SUPERVISOR_VALIDATION:REJECTED:RPR-SVM-FAILED-004',
    );
    await userLogin(t, 'locked-officer', ['REGISTRATION_OFFICER'], 'registrationclient');
    await t.request('POST', '/v1/masterdata/usercentermapping', { body: envelopeOf({ userId: 'locked-officer', regCenterId: '10001' }), headers: admin });
    await t.platform.deps.prisma.user.update({ where: { userId: 'locked-officer' }, data: { isLocked: true } });
    expect((await refusal('trust-locked', { packet: { officerId: 'locked-officer' } })).rejected).toBe('OPERATOR_VALIDATION:REJECTED:RPR-OVM-FAILED-004');
  });

  it('refuses a packet that records no sign-in of its officer', async () => {
    const { rejected } = await refusal('trust-noauth', { packet: { officerAuthentication: { password: false, otp: false } } });
    expect(rejected).toBe('OPERATOR_VALIDATION:REJECTED:RPR-OVM-FAILED-003');
  });

  it("refuses an officer of another centre, who was not mapped to the packet's centre", async () => {
    const { rejected } = await refusal('trust-elsewhere', { packet: { officerId: 'officer-b' } });
    expect(rejected).toBe('OPERATOR_VALIDATION:REJECTED:RPR-OVM-FAILED-001');
  });

  it('refuses a creation date a week away from the RID', async () => {
    const { rejected } = await refusal('trust-backdated', { packet: { creationDate: new Date(t.clock.now().getTime() - 7 * 86_400_000) } });
    expect(rejected).toBe('CMD_VALIDATION:REJECTED:RPR-CMD-FAILED-016');
  });

  it('passes a packet of every sample officer, and of an officer whose biometrics match their own identity', async () => {
    for (const officerId of ['sample-officer', 'sample-operator']) {
      const built = centreA.build(`trust-staff-${officerId}`, { packet: { officerId } });
      expect(await run(centreA, built)).toBe('PROCESSED');
    }
    // An officer who is also a resident signs in with a finger: matched against their identity, not taken on the packet's word.
    const person = await enrolled('trust-officer-person');
    await userLogin(t, 'bio-officer', ['REGISTRATION_OFFICER'], 'registrationclient');
    await t.request('POST', '/v1/masterdata/usercentermapping', { body: envelopeOf({ userId: 'bio-officer', regCenterId: '10001' }), headers: admin });
    await t.platform.deps.prisma.user.update({ where: { userId: 'bio-officer' }, data: { rid: person.built.rid } });
    const finger = buildCbeff(person.built.resident.biometrics.slice(0, 1));
    const own = centreA.build('trust-bio-officer', { packet: { officerId: 'bio-officer', officerAuthentication: { biometrics: finger } } });
    expect(await run(centreA, own)).toBe('PROCESSED');
    const someoneElse = buildCbeff(sampleResident('trust-not-the-officer').biometrics.slice(0, 1));
    const { rejected } = await refusal('trust-bio-impostor', { packet: { officerId: 'bio-officer', officerAuthentication: { biometrics: someoneElse } } });
    expect(rejected).toBe('OPERATOR_VALIDATION:REJECTED:RPR-OVM-FAILED-003');
  });
});

describe('a RID names the centre and machine that made it', () => {
  it("another centre's RID is refused in its sync without a word of whether it exists, and the centre that made it syncs it after", async () => {
    const built = centreA.build('trust-rid-a');
    const attempt = await t.request('POST', `${REGPROC}/registrationstatus/sync`, {
      raw: syncRequestBody([syncRecordOf(built.rid, built.sealed)], await registrationCertificate(), t.clock.now()),
      headers: { ...officerB, 'Center-Machine-RefId': '10002_10002', timestamp: t.clock.now().toISOString() },
    });
    expect(attempt.json.errors).toEqual([
      expect.objectContaining({ registrationId: built.rid, errorCode: 'RPR-RGS-015', message: expect.stringMatching(/not made at the centre and machine/) }),
    ]);
    expect(await t.platform.deps.prisma.registration.findUnique({ where: { rid: built.rid } })).toBeNull();
    expect(await run(centreA, built)).toBe('PROCESSED');
    // Once it exists, the answer to the other centre is the same.
    const again = await t.request('POST', `${REGPROC}/registrationstatus/sync`, {
      raw: syncRequestBody([syncRecordOf(built.rid, built.sealed)], await registrationCertificate(), t.clock.now()),
      headers: { ...officerB, 'Center-Machine-RefId': '10002_10002', timestamp: t.clock.now().toISOString() },
    });
    expect(again.json.errors).toEqual(attempt.json.errors);
  });
});

describe("a packet's own fault", () => {
  it('a field name with a NUL is REJECTED in one attempt, with no database text in what operators read', async () => {
    const resident = sampleResident('trust-nul');
    const rid = makeRid('10001', '10001', 777, t.clock.now());
    const zip = buildPacketZip({
      registrationId: rid,
      centerId: '10001',
      machineId: '10001',
      creationDate: t.clock.now(),
      officerId: 'sample-officer',
      supervisorId: 'sample-supervisor',
      identity: { ...resident.identity, 'bad\u0000field': 'x' },
      cbeff: resident.cbeff,
      documents: resident.documents,
    });
    const built = { rid, sealed: sealPacket(zip, await registrationCertificate()), resident };
    expect(await run(centreA, built)).toBe('REJECTED');
    const row = await registrationOf(rid);
    expect(row.attempts).toBe(0);
    expect(row.lastError).toMatch(/ID schema/);
    expect(row.lastError).not.toMatch(/prisma|invalid byte sequence|\/work\/|node_modules/i);
    expect(row.lastError).not.toContain('\u0000');
    expect((await transactionsOf(rid)).filter((tx) => tx.startsWith('VALIDATE_PACKET'))).toEqual(['VALIDATE_PACKET:REJECTED:ID_SCHEMA']);
  });
});
