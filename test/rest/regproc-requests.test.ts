// The registration processor's other calls: UIN deactivation and activation and card reprints made
// into registrations through the pipeline (request handler), the DMZ bridge's secure-zone notice
// (plain text), and the ABIS's biometric file (role ABIS only).
import { beforeAll, describe, expect, it } from 'vitest';
import { parseCbeff } from '../../lib/packet/cbeff.js';
import { expectRejected } from '../support/assertions.js';
import { bearer, envelopeOf, type TestPlatform, useTestPlatform } from '../support/platform.js';
import { REGPROC, registrationClient, type BuiltPacket, type RegistrationClient } from '../support/regproc.js';

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
const statusOfIdentity = async () => (await t.platform.deps.services.identities.byUin(uin))?.status;

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
  it("serves the registration's CBEFF without exceptions to the ABIS role only", async () => {
    const row = await t.platform.deps.prisma.registration.findUnique({ where: { rid: processed.rid } });
    const path = `${REGPROC}/bio-dedupe/biometricfile/${row!.bioRefId}`;
    const abis = bearer((await t.clientToken(['ABIS'], 'registrationprocessor')).token);
    const response = await fetch(`${t.baseUrl}${path}`, { headers: abis });
    expect(response.headers.get('content-type')).toMatch(/^application\/xml/);
    const bytes = Buffer.from(await response.arrayBuffer());
    const served = parseCbeff(bytes);
    const original = parseCbeff(processed.resident.cbeff);
    expect(served.birs.length).toBe(original.birs.filter((bir) => !bir.exception).length);
    expect(served.birs.every((bir) => !bir.exception)).toBe(true);

    const globalAdmin = bearer((await t.clientToken(['GLOBAL_ADMIN', 'REGISTRATION_PROCESSOR'])).token);
    expect((await t.request('GET', path, { headers: globalAdmin })).json.errors[0].errorCode).toBe('KER-ATH-403');
    expect((await t.request('GET', `${REGPROC}/bio-dedupe/biometricfile/unknown-reference`, { headers: abis })).json.errors[0].errorCode).toBe('RPR-MVS-001');
  });
});
