// The registration processor's other calls: UIN deactivation and activation and card reprints made
// into registrations through the pipeline (request handler), by the processor's operators for any
// identity and by a resident for its own, the DMZ bridge's secure-zone notice (plain text), and the
// ABIS's biometric file (role ABIS only; with REGPROC_DEDUPE=abis only: regproc-biometric-file.test.ts).
import { beforeAll, describe, expect, it } from 'vitest';
import { expectRejected } from '../support/assertions.js';
import { bearer, cookieHeader, envelopeOf, type TestPlatform, useTestPlatform } from '../support/platform.js';
import { REGPROC, registrationClient, type BuiltPacket, type RegistrationClient } from '../support/regproc.js';
import { residentLogin } from '../support/residents.js';
import { userLogin } from '../support/users.js';

let t: TestPlatform;
let admin: Record<string, string>;
let client: RegistrationClient;
let processed: BuiltPacket;
let uin: string;
useTestPlatform({ PLATFORM_SAMPLE_DATA: 'true' }, (platform, cookie) => {
  t = platform;
  admin = cookie;
});

beforeAll(async () => {
  client = await registrationClient(t, admin);
  processed = client.build('requests-resident');
  await client.submit(processed);
  expect(await client.settle(processed.rid)).toBe('PROCESSED');
  const identity = await t.platform.deps.services.identities.byRegistration(processed.rid);
  uin = await t.platform.deps.services.identities.uinOfRow(identity!);
});

const generate = (request: Record<string, unknown>, headers = admin) =>
  t.request('POST', `${REGPROC}/requesthandler/packetgenerator`, { body: envelopeOf(request, { id: 'platform.registration.packetgenerator' }), headers });
const reprint = (request: Record<string, unknown>, headers = admin) =>
  t.request('POST', `${REGPROC}/requesthandler/reprint`, { body: envelopeOf(request, { id: 'platform.uincard.reprint' }), headers });
const statusOfIdentity = async (of = uin) => (await t.platform.deps.services.identities.byUin(of))?.status;

/** A processed registration of a fresh sample resident: its packet and the UIN it was given. */
async function processedResident(seed: string): Promise<{ packet: BuiltPacket; uin: string }> {
  const packet = client.build(seed);
  await client.submit(packet);
  expect(await client.settle(packet.rid)).toBe('PROCESSED');
  const identity = await t.platform.deps.services.identities.byRegistration(packet.rid);
  return { packet, uin: await t.platform.deps.services.identities.uinOfRow(identity!) };
}

/** A Perpetual VID of the UIN, made by the processor. */
async function vidOf(of: string): Promise<string> {
  const processor = cookieHeader((await t.clientToken(['REGISTRATION_PROCESSOR'], 'registrationprocessor')).token);
  const { json } = await t.request('POST', '/idrepository/v1/vid', { body: envelopeOf({ vidType: 'Perpetual', UIN: of }), headers: processor });
  expect(json.errors, JSON.stringify(json.errors)).toBeOneOf([null, []]);
  return json.response.VID as string;
}

describe('packet generator', () => {
  it('deactivates a UIN through the pipeline, notifying the resident at the stored address, and activates it again', async () => {
    const before = await t.platform.deps.prisma.notification.count();
    const { json } = await generate({ centerId: '10001', machineId: '10001', reason: 'resident asked', registrationType: 'DEACTIVATED', uin });
    expect(json.errors).toBeNull();
    expect(json.response).toMatchObject({ registrationId: expect.stringMatching(/^1000110001\d{19}$/), status: 'PACKET_RECEIVED' });
    expect(await client.settle(json.response.registrationId)).toBe('PROCESSED');
    expect(await statusOfIdentity()).toBe('DEACTIVATED');
    const outbox = await t.graphql('query($to: String) { outbox(to: $to) { subject } }', { to: processed.resident.identity.email }, admin);
    expect(outbox.data.outbox.map((row: { subject: string }) => row.subject)).toContain('Your identity has been updated');
    expect(await t.platform.deps.prisma.notification.count()).toBe(before + 1);
    // A deactivated identity changes no more: activation is refused before any registration is made.
    await expectRejected(t, () => generate({ centerId: '10001', machineId: '10001', registrationType: 'ACTIVATED', uin }), 'RPR-PGS-011', /DEACTIVATED/);
  });

  it('refuses bad input with RPR-PGS-011 and callers without the role with KER-ATH-403, changing nothing', async () => {
    await expectRejected(t, () => generate({ centerId: '10001', machineId: '10001', registrationType: 'LOST', uin }), 'RPR-PGS-011');
    await expectRejected(t, () => generate({ centerId: '10001', machineId: '10001', registrationType: 'DEACTIVATED', uin: '1234567890' }), 'RPR-PGS-011');
    await expectRejected(t, () => generate({ centerId: '99999', machineId: '10001', registrationType: 'DEACTIVATED', uin }), 'RPR-PGS-011');
    await expectRejected(t, () => generate({ machineId: '10001', registrationType: 'DEACTIVATED', uin }), 'RPR-PGS-011');
    const officer = bearer((await t.clientToken(['REGISTRATION_OFFICER'])).token);
    await expectRejected(t, () => generate({ centerId: '10001', machineId: '10001', registrationType: 'DEACTIVATED', uin }, officer), 'KER-ATH-403');
  });

  it('refuses a centre or machine id that is not five digits with RPR-PGS-011, even of an active machine of an active centre, changing nothing', async () => {
    // Master data takes ids of up to 10 characters; a RID holds five digits of each.
    const send = async (path: string, body: Record<string, unknown>) =>
      expect((await t.request('POST', path, { body: envelopeOf(body), headers: admin })).json.errors).toBeNull();
    const place = { langCode: 'eng', zoneCode: 'KTA' };
    await send('/v1/masterdata/registrationcenters', {
      ...place,
      id: '100001',
      name: 'Long id centre',
      centerTypeCode: 'REG',
      locationCode: 'KTA',
      holidayLocationCode: 'KTA',
    });
    await send('/v1/masterdata/machines', {
      ...place,
      id: '100001',
      name: 'machine-100001',
      serialNum: 'SN',
      machineSpecId: '1001',
      regCenterId: '100001',
      macAddress: 'M6',
    });
    expect(await t.platform.deps.services.machines.placement('100001', '100001')).toBe('ACTIVE');
    // An active identity: every other check passes, so only the ids are refused.
    const { uin: other } = await processedResident('requests-five-digits');
    for (const ids of [
      { centerId: '100001', machineId: '100001' },
      { centerId: '10001', machineId: '1000A' },
      { centerId: '1001', machineId: '10001' },
    ]) {
      await expectRejected(t, () => generate({ ...ids, registrationType: 'DEACTIVATED', uin: other }), 'RPR-PGS-011', /five digits/);
      await expectRejected(
        t,
        () => reprint({ ...ids, cardType: 'UIN', id: other, idType: 'UIN', registrationType: 'RES_REPRINT' }),
        'RPR-PGS-011',
        /five digits/,
      );
    }
  });
});

describe('packet generator and reprint for a resident', () => {
  let own: { packet: BuiltPacket; uin: string };
  let other: { packet: BuiltPacket; uin: string };
  let resident: Record<string, string>;
  beforeAll(async () => {
    own = await processedResident('requests-own');
    other = await processedResident('requests-other');
    // The resident portal's sign-in: an OTP to the identity's e-mail; the token names the identity.
    resident = (await residentLogin(t, own.uin, own.packet.resident.identity.email as string)).cookie;
  });

  it("refuses a resident another's UIN or VID, and a UIN of nobody, alike with RPR-MVS-001, changing nothing", async () => {
    const request = { centerId: '10001', machineId: '10001', registrationType: 'DEACTIVATED' };
    await expectRejected(t, () => generate({ ...request, uin: other.uin }, resident), 'RPR-MVS-001', /not the resident's/);
    await expectRejected(t, () => generate({ ...request, uin: '1234567890' }, resident), 'RPR-MVS-001', /not the resident's/);
    const card = { cardType: 'UIN', centerId: '10001', machineId: '10001', registrationType: 'RES_REPRINT' };
    await expectRejected(t, () => reprint({ ...card, id: other.uin, idType: 'UIN' }, resident), 'RPR-MVS-001');
    const otherVid = await vidOf(other.uin);
    // Nothing of the other's VID is read: no line in its identity's trail.
    await expectRejected(t, () => reprint({ ...card, id: otherVid, idType: 'VID' }, resident), 'RPR-MVS-001', /not the resident's/);
    await expectRejected(t, () => reprint({ ...card, id: '9999999999999999', idType: 'VID' }, resident), 'RPR-MVS-001');
    // The centre and machine named must still be an active machine of an active centre.
    await expectRejected(t, () => generate({ ...request, centerId: '99999', uin: own.uin }, resident), 'RPR-PGS-011');
    expect(await statusOfIdentity(other.uin)).toBe('ACTIVATED');
  });

  it('lets a resident signed in by OTP reprint its card by VID and deactivate its own UIN, with no centre mapping', async () => {
    const card = { cardType: 'UIN', centerId: '10001', machineId: '10001', registrationType: 'RES_REPRINT', id: await vidOf(own.uin), idType: 'VID' };
    const printed = await reprint(card, resident);
    expect(printed.json.errors).toBeNull();
    expect(await client.settle(printed.json.response.registrationId)).toBe('PROCESSED');

    const { json } = await generate(
      { centerId: '10001', machineId: '10001', reason: 'resident asked', registrationType: 'DEACTIVATED', uin: own.uin },
      resident,
    );
    expect(json.errors).toBeNull();
    expect(json.response).toMatchObject({ registrationId: expect.stringMatching(/^1000110001\d{19}$/), status: 'PACKET_RECEIVED' });
    expect(await client.settle(json.response.registrationId)).toBe('PROCESSED');
    expect(await statusOfIdentity(own.uin)).toBe('DEACTIVATED');
  });

  it('refuses a user or client that merely holds RESIDENT, even mapped to the centre, with RPR-MVS-001 for any identity, changing nothing', async () => {
    const user = (await userLogin(t, 'resident-role-user', ['RESIDENT'], 'registrationclient')).bearer;
    expect(
      (
        await t.request('POST', '/v1/masterdata/usercentermapping', {
          body: envelopeOf({ userId: 'resident-role-user', regCenterId: '10001' }),
          headers: admin,
        })
      ).json.errors,
    ).toBeNull();
    const residentClient = bearer((await t.clientToken(['RESIDENT'], 'resident')).token);
    const request = { centerId: '10001', machineId: '10001', registrationType: 'DEACTIVATED', uin: other.uin };
    const card = { cardType: 'UIN', centerId: '10001', machineId: '10001', registrationType: 'RES_REPRINT', id: other.uin, idType: 'UIN' };
    for (const caller of [user, residentClient]) {
      await expectRejected(t, () => generate(request, caller), 'RPR-MVS-001', /resident's own identity only/);
      await expectRejected(t, () => reprint(card, caller), 'RPR-MVS-001', /resident's own identity only/);
    }
    expect(await statusOfIdentity(other.uin)).toBe('ACTIVATED');
  });
});

describe('reprint', () => {
  it('records a reprint of an active identity as a registration with a PRINT_SERVICE transaction', async () => {
    const other = client.build('requests-reprint');
    await client.submit(other);
    expect(await client.settle(other.rid)).toBe('PROCESSED');
    const otherUin = await t.platform.deps.services.identities.uinOfRow((await t.platform.deps.services.identities.byRegistration(other.rid))!);
    const { json } = await reprint({
      cardType: 'UIN',
      centerId: '10001',
      id: otherUin,
      idType: 'UIN',
      machineId: '10001',
      reason: 'lost card',
      registrationType: 'RES_REPRINT',
    });
    expect(json.errors).toBeNull();
    const rid = json.response.registrationId as string;
    expect(await client.settle(rid)).toBe('PROCESSED');
    const transactions = (await t.request('GET', `${REGPROC}/registrationtransaction/search/eng/${rid}`, { headers: admin })).json.response;
    expect(transactions.map((row: { transactionTypeCode: string }) => row.transactionTypeCode)).toContain('PRINT_SERVICE');
  });

  it('refuses another registration type or id type with RPR-RGS-015, a missing id with RPR-PGS-011', async () => {
    const request = { cardType: 'UIN', centerId: '10001', id: uin, idType: 'UIN', machineId: '10001', registrationType: 'RES_REPRINT' };
    await expectRejected(t, () => reprint({ ...request, registrationType: 'NEW' }), 'RPR-RGS-015');
    await expectRejected(t, () => reprint({ ...request, idType: 'RID' }), 'RPR-RGS-015');
    await expectRejected(t, () => reprint({ ...request, idType: 'VID', id: '9999999999999999' }), 'RPR-RGS-015');
    await expectRejected(t, () => reprint({ ...request, id: undefined }), 'RPR-PGS-011');
  });
});

describe('secure zone', () => {
  it('answers in plain text whether the packet is stored and on its way', async () => {
    const send = async (body: Record<string, unknown>) => {
      const response = await fetch(`${t.baseUrl}${REGPROC}/uploader/securezone`, {
        method: 'POST',
        body: JSON.stringify(body),
        headers: { ...admin, 'content-type': 'application/json' },
      });
      return { type: response.headers.get('content-type'), text: await response.text() };
    };
    const landed = await send({ rid: processed.rid, reg_type: 'NEW', isValid: true, internalError: false, messageBusAddress: 'securezone', retryCount: 0 });
    expect(landed).toEqual({ type: expect.stringMatching(/^text\/plain/), text: `Packet ${processed.rid} is forwarded to next stage` });
    expect((await send({ rid: '10001100019999920260101000000', isValid: true })).text).toBe(
      'Packet 10001100019999920260101000000 is not uploaded to the file system',
    );
    expect((await send({ rid: processed.rid, isValid: false })).text).toContain('is not uploaded');
  });
});

describe('biometric file', () => {
  it('serves nothing while de-duplication uses no ABIS (RPR-MVS-001), and nothing to another role (KER-ATH-403), changing nothing', async () => {
    const row = await t.platform.deps.prisma.registration.findUnique({ where: { rid: processed.rid } });
    expect(row!.bioRefId).toBeTruthy();
    const path = `${REGPROC}/bio-dedupe/biometricfile/${row!.bioRefId}`;
    const abis = bearer((await t.clientToken(['ABIS'], 'registrationprocessor')).token);
    await expectRejected(t, () => t.request('GET', path, { headers: abis }), 'RPR-MVS-001');
    await expectRejected(t, () => t.request('GET', `${REGPROC}/bio-dedupe/biometricfile/unknown-reference`, { headers: abis }), 'RPR-MVS-001');
    const globalAdmin = bearer((await t.clientToken(['GLOBAL_ADMIN', 'REGISTRATION_PROCESSOR'])).token);
    await expectRejected(t, () => t.request('GET', path, { headers: globalAdmin }), 'KER-ATH-403');
  });
});
