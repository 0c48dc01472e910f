// The registration processor's first slice: the encrypted sync of RIDs, their status and transactions,
// on the sample country (centre and machine 10001, zone KTA) with a second centre 10002 and machine 10002.
import { randomUUID, X509Certificate } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { encodeBase64Url, encryptRegistration, type RecipientKey } from '../../lib/crypto/envelope.js';
import { expectError, expectRejected } from '../support/assertions.js';
import { bearer, envelopeOf, type TestPlatform, useTestPlatform } from '../support/platform.js';
import { userLogin } from '../support/users.js';
import { registrationClient } from '../support/regproc.js';
import { syncRecordOf } from '../../lib/packet/write.js';
import { refusalOf } from '../support/refusals.js';

let t: TestPlatform;
let admin: Record<string, string>;
useTestPlatform({ PLATFORM_SAMPLE_DATA: 'true' }, (platform, adminCookie) => {
  t = platform;
  admin = adminCookie;
});

const SYNC = '/registrationprocessor/v1/registrationstatus/sync';
const SEARCH = '/registrationprocessor/v1/registrationstatus/search';
const HASH = 'ab'.repeat(32);

let recipient: RecipientKey;
/** Bearer headers: an officer of centre 10001, one of centre 10002, the admin. */
const who: Record<'officer1' | 'officer2' | 'admin', Record<string, string>> = { officer1: {}, officer2: {}, admin: {} };

const ok = async (response: Promise<{ json: any }>) => {
  const { json } = await response;
  expect(json.errors, JSON.stringify(json.errors)).toBeNull();
  return json.response;
};

/** A RID of centre and machine, with sequence `seq` and the time `at` (now by default). */
let sequence = 10000;
function rid(centre = '10001', machine = '10001', at = new Date()): string {
  const stamp = at.toISOString().replace(/[-:T]/g, '').slice(0, 14);
  return `${centre}${machine}${String(++sequence).slice(-5)}${stamp}`;
}

const record = (registrationId: string, over: Record<string, unknown> = {}) => ({
  registrationId,
  registrationType: 'NEW',
  packetHashValue: HASH,
  packetSize: 1234,
  supervisorStatus: 'APPROVED',
  supervisorComment: 'fine',
  langCode: 'eng',
  optionalValues: [{ key: 'CENTERNAME', value: 'Center A' }],
  ...over,
});

/** The body a registration client sends: a JSON string of base64url(E_REG(sync request)). */
const syncBody = (records: unknown[], envelope: Record<string, unknown> = {}) =>
  JSON.stringify(
    encodeBase64Url(
      encryptRegistration(
        recipient,
        Buffer.from(JSON.stringify({ id: 'platform.registration.sync', version: '1.0', requesttime: new Date().toISOString(), request: records, ...envelope })),
      ),
    ),
  );

const sync = (body: string, headers: Record<string, string>, refId = '10001_10001') =>
  t.request('POST', SYNC, { raw: body, headers: { 'Center-Machine-RefId': refId, timestamp: new Date().toISOString(), ...headers } });

const rowOf = (registrationId: string) => t.platform.deps.prisma.registration.findUnique({ where: { rid: registrationId } });

beforeAll(async () => {
  who.admin = bearer(await t.adminToken());
  const cert = (await t.request('GET', '/v1/keymanager/getCertificate?applicationId=REGISTRATION', { headers: admin })).json.response.certificate as string;
  const certificate = new X509Certificate(cert);
  recipient = { certificate, publicKey: certificate.publicKey };
  const send = (path: string, body: unknown) => ok(t.request('POST', path, { body: envelopeOf(body), headers: admin }));
  const centre = { langCode: 'eng', centerTypeCode: 'REG', locationCode: 'KTA', holidayLocationCode: 'KTA', zoneCode: 'KTA' };
  await send('/v1/masterdata/registrationcenters', { ...centre, id: '10002', name: 'Second centre' });
  const machine = { langCode: 'eng', serialNum: 'SN', machineSpecId: '1001', zoneCode: 'KTA' };
  await send('/v1/masterdata/machines', { ...machine, id: '10002', name: 'machine-10002', regCenterId: '10002', macAddress: 'M2' });
  await send('/v1/masterdata/machines', { ...machine, id: '10003', name: 'machine-10003', regCenterId: '10001', macAddress: 'M3', isActive: false });
  who.officer1 = (await userLogin(t, 'officer-10001', ['REGISTRATION_OFFICER'], 'registrationclient')).bearer;
  who.officer2 = (await userLogin(t, 'officer-10002', ['REGISTRATION_SUPERVISOR'], 'registrationclient')).bearer;
  await send('/v1/masterdata/usercentermapping', { userId: 'officer-10001', regCenterId: '10001' });
  await send('/v1/masterdata/usercentermapping', { userId: 'officer-10002', regCenterId: '10002' });
});

describe('POST registrationstatus/sync', () => {
  it('records each RID as UPLOAD_PENDING and signs the answer with Response-Signature', async () => {
    const [first, second] = [rid(), rid()];
    const body = syncBody([record(first), record(second, { registrationType: 'UPDATE', packetSize: 99 })]);
    const response = await fetch(t.baseUrl + SYNC, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'Center-Machine-RefId': '10001_10001', timestamp: new Date().toISOString(), ...who.officer1 },
      body,
    });
    const text = await response.text();
    const json = JSON.parse(text);
    expect(json).toMatchObject({ id: 'platform.registration.sync', errors: null });
    expect(json.response).toEqual([
      { registrationId: first, status: 'SUCCESS' },
      { registrationId: second, status: 'SUCCESS' },
    ]);
    const signature = response.headers.get('response-signature');
    expect(signature).toBeTruthy();
    await expect(t.platform.deps.services.keys.validateSignature(signature, text)).resolves.toMatchObject({ status: 'success' });
    await expect(t.platform.deps.services.keys.validateSignature(signature, text.replace(first, rid()))).rejects.toThrow();
    expect(await rowOf(second)).toMatchObject({
      centreId: '10001',
      machineId: '10001',
      registrationType: 'UPDATE',
      packetHashValue: HASH.toUpperCase(),
      packetSize: 99,
      supervisorStatus: 'APPROVED',
      status: 'UPLOAD_PENDING',
      stage: null,
      syncedBy: 'officer-10001',
    });
  });

  it('answers each bad record with its code and records the good ones beside them', async () => {
    const good = rid();
    const badTime = `100011000100001${'20241399120000'}`;
    const records = [
      record('1000110001000012024'),
      record(badTime),
      record(rid(), { optionalValues: [{ key: 'parentRegistrationId', value: '123' }] }),
      record(rid(), { parentRegistrationId: `100011000100001${'20240230120000'}` }),
      record(rid(), { packetSize: -1 }),
      record(rid(), { supervisorStatus: 'MAYBE' }),
      record(good),
    ];
    const json = (await sync(syncBody(records), who.officer1)).json;
    expect(json.response).toEqual([{ registrationId: good, status: 'SUCCESS' }]);
    expect(json.errors.map((item: any) => [item.registrationId, item.status, item.errorCode])).toEqual([
      ['1000110001000012024', 'FAILURE', 'RPR-RGS-009'],
      [badTime, 'FAILURE', 'RPR-RGS-007'],
      [records[2]!.registrationId, 'FAILURE', 'RPR-RGS-012'],
      [records[3]!.registrationId, 'FAILURE', 'RPR-RGS-012'],
      [records[4]!.registrationId, 'FAILURE', 'RPR-RGS-015'],
      [records[5]!.registrationId, 'FAILURE', 'RPR-RGS-015'],
    ]);
    for (const item of json.errors) expect(item.message).toBeTruthy();
    expect(await rowOf(good)).not.toBeNull();
    expect(await t.platform.deps.prisma.registration.count({ where: { rid: { in: records.slice(0, 6).map((r) => r.registrationId) } } })).toBe(0);
  });

  it('refuses what cannot be decrypted with RPR-RGS-001, and a request that is not a sync with RPR-RGS-015, changing nothing', async () => {
    await expectRejected(t, () => sync(JSON.stringify(encodeBase64Url(Buffer.alloc(400, 7))), who.officer1), 'RPR-RGS-001');
    await expectRejected(t, () => sync('"not base64 at all!"', who.officer1), 'RPR-RGS-001');
    await expectRejected(t, () => sync(syncBody([record(rid())], { id: 'platform.other' }), who.officer1), 'RPR-RGS-015');
    await expectRejected(t, () => sync(syncBody([record(rid())]), { ...who.officer1, timestamp: 'yesterday' }), 'RPR-RGS-015');
  });

  it('replaces the hash and size of a RID synced again before its packet arrives', async () => {
    const id = rid();
    await sync(syncBody([record(id)]), who.officer1);
    const json = (await sync(syncBody([record(id, { packetHashValue: 'cd'.repeat(32), packetSize: 4321 })]), who.officer1)).json;
    expect(json.response).toEqual([{ registrationId: id, status: 'SUCCESS' }]);
    expect(await rowOf(id)).toMatchObject({ packetHashValue: 'CD'.repeat(32), packetSize: 4321, status: 'UPLOAD_PENDING' });
    // Another machine may not rewrite it.
    const other = (await sync(syncBody([record(id, { packetSize: 1 })]), who.admin, '10002_10002')).json;
    expect(other.errors).toEqual([expect.objectContaining({ registrationId: id, status: 'FAILURE', errorCode: 'RPR-RGS-015' })]);
    expect((await rowOf(id))?.packetSize).toBe(4321);
  });

  it('refuses an officer syncing for another centre, and an unknown or inactive machine, changing nothing', async () => {
    await expectRejected(t, () => sync(syncBody([record(rid())]), who.officer2), 'KER-ATH-403');
    await expectRejected(t, () => sync(syncBody([record(rid())]), who.admin, '10001_99999'), 'RPR-RGS-015', /machine not found/);
    await expectRejected(t, () => sync(syncBody([record(rid())]), who.admin, '10001_10003'), 'RPR-RGS-015', /machine is not active/);
    await expectRejected(t, () => sync(syncBody([record(rid())]), who.admin, '10001_10002'), 'RPR-RGS-015', /not at this registration centre/);
    await expectRejected(t, () => sync(syncBody([record(rid())]), who.admin, '99999_10001'), 'RPR-RGS-015', /centre not found/);
    await expectRejected(t, () => sync(syncBody([record(rid())]), who.officer1, 'garbage'), 'RPR-RGS-015');
    // The officer of 10002 syncs for its own centre.
    const own = rid('10002', '10002');
    expect((await sync(syncBody([record(own)]), who.officer2, '10002_10002')).json.response).toEqual([{ registrationId: own, status: 'SUCCESS' }]);
  });
});

describe('the timestamp header', () => {
  const SYNC_MUTATION =
    'mutation($ref: String!, $ts: DateTime!, $data: String!) { syncRegistrations(input: { centerMachineRefId: $ref, timestamp: $ts, data: $data }) { registrationSyncResult { response { registrationId status } registrations { registrationId status } } userErrors { field code message } } }';
  const BAD_TIMESTAMP = 'Invalid request value, input data incorrect: timestamp must be an ISO 8601 date and time';

  it('is a DateTime through GraphQL: an ISO instant is taken, what is no instant GraphQL refuses, absent the graph’s types refuse', async () => {
    const run = (ts: unknown, id = rid()) => t.graphql(SYNC_MUTATION, { ref: '10001_10001', ts, data: JSON.parse(syncBody([record(id)])) }, who.officer1);
    const offset = new Date(Date.now() + 5.5 * 3_600_000).toISOString().replace(/\.\d{3}Z$/, '+05:30');
    for (const ts of [new Date().toISOString(), offset]) {
      const id = rid();
      const answer = await run(ts, id);
      expect(answer.errors).toBeUndefined();
      // The payload carries each registration recorded.
      expect(answer.data.syncRegistrations).toEqual({
        registrationSyncResult: { response: [{ registrationId: id, status: 'SUCCESS' }], registrations: [{ registrationId: id, status: 'UPLOAD_PENDING' }] },
        userErrors: [],
      });
    }
    const before = await t.snapshot();
    for (const ts of ['yesterday', '', '2026-02-30T00:00:00.000Z']) {
      const refused = await run(ts);
      expect(refused.data ?? null).toBeNull();
      expect(refusalOf(refused)).toMatchObject({ code: 'BAD_USER_INPUT', message: expect.stringMatching(/DateTime/) });
    }
    const literal = await t.graphql(
      'mutation { syncRegistrations(input: { centerMachineRefId: "10001_10001", timestamp: "soon", data: "AAAA" }) { userErrors { code } } }',
      {},
      who.officer1,
    );
    // A literal that is no instant is refused too (the gateway's code for it is not this test's concern).
    expect(literal.data ?? null).toBeNull();
    expect(literal.errors).toHaveLength(1);
    // Absent, the graph's types refuse it before anything runs (REST answers RPR-RGS-015 for a missing header).
    const absent = await run(null);
    expect(absent.data ?? null).toBeNull();
    expect(refusalOf(absent)).toMatchObject({ code: 'BAD_USER_INPUT', message: expect.stringMatching(/DateTime!/) });
    expect(await t.snapshot()).toEqual(before);
  });

  it('REST answers a malformed or missing header with RPR-RGS-015 as before, after the faults reported before it', async () => {
    for (const timestamp of ['yesterday', '2026-02-30T00:00:00.000Z', '1700000000000']) {
      await expectRejected(t, () => sync(syncBody([record(rid())]), { ...who.officer1, timestamp }), 'RPR-RGS-015', new RegExp(`^${BAD_TIMESTAMP}$`));
    }
    // A bad Center-Machine-RefId or an empty body is still reported first, with its own message.
    await expectRejected(
      t,
      () => sync(syncBody([record(rid())]), { ...who.officer1, timestamp: 'yesterday' }, 'garbage'),
      'RPR-RGS-015',
      /^centerMachineRefId /,
    );
    await expectRejected(t, () => sync('""', { ...who.officer1, timestamp: 'yesterday' }), 'RPR-RGS-015', /^data /);
    // A missing header is the field's own refusal.
    const { json } = await t.request('POST', SYNC, { raw: syncBody([record(rid())]), headers: { 'Center-Machine-RefId': '10001_10001', ...who.officer1 } });
    expectError(json, 'RPR-RGS-015', /^timestamp is required$/);
    // What the service parsed before still goes through: an offset without a fraction, a time without a zone (UTC).
    for (const timestamp of [new Date().toISOString().replace(/\.\d{3}Z$/, '+00:00'), new Date().toISOString().slice(0, 19)]) {
      const id = rid();
      expect(await ok(sync(syncBody([record(id)]), { ...who.officer1, timestamp }))).toEqual([{ registrationId: id, status: 'SUCCESS' }]);
    }
  });
});

describe('status and transactions', () => {
  it('answers UPLOAD_PENDING for a synced RID, RPR-RGS-031 items for unknown ones and for another centre', async () => {
    const id = rid();
    await sync(syncBody([record(id)]), who.officer1);
    const unknown = rid();
    const search = (headers: Record<string, string>) =>
      t.request('POST', SEARCH, { body: envelopeOf([{ registrationId: id }, { registrationId: unknown }], { id: 'platform.registration.status' }), headers });
    const json = (await search(who.officer1)).json;
    expect(json.id).toBe('platform.registration.status');
    expect(json.response).toEqual([{ registrationId: id, statusCode: 'UPLOAD_PENDING' }]);
    expect(json.errors).toEqual([{ registrationId: unknown, errorCode: 'RPR-RGS-031', errorMessage: 'RID Not Found' }]);
    const stranger = (await search(who.officer2)).json;
    expect(stranger.response).toEqual([]);
    expect(stranger.errors.map((item: any) => item.registrationId)).toEqual([id, unknown]);
    expect(
      (await t.request('POST', SEARCH, { body: envelopeOf([], { id: 'platform.registration.status' }), headers: who.admin })).json.errors[0].errorCode,
    ).toBe('RPR-RGS-015');
  });

  it("answers a synced RID's transactions, RPR-RTS-001 while it has none", async () => {
    const id = rid();
    await sync(syncBody([record(id)]), who.officer1);
    const path = `/registrationprocessor/v1/registrationtransaction/search/eng/${id}`;
    const none = (await t.request('GET', path, { headers: who.officer1 })).json;
    expect(none.errors[0].errorCode).toBe('RPR-RTS-001');
    // The packet receiver (next slice) writes the first transaction.
    const createdAt = new Date();
    await t.platform.deps.prisma.registrationTransaction.create({
      data: {
        id: randomUUID(),
        rid: id,
        transactionTypeCode: 'PACKET_RECEIVER',
        statusCode: 'SUCCESS',
        subStatusCode: 'PACKET_RECEIVED',
        statusComment: 'Packet received',
        langCode: 'eng',
        createdAt,
      },
    });
    const json = (await t.request('GET', path, { headers: who.officer1 })).json;
    expect(json.id).toBe('platform.registration.transaction');
    expect(json.response).toEqual([
      expect.objectContaining({ registrationId: id, transactionTypeCode: 'PACKET_RECEIVER', statusCode: 'SUCCESS', createdDateTimes: createdAt.toISOString() }),
    ]);
    expect((await t.request('GET', path, { headers: who.officer2 })).json.errors[0].errorCode).toBe('RPR-RTS-001');
    expect(
      (await t.request('GET', `/registrationprocessor/v1/registrationtransaction/search/english/${id}`, { headers: who.officer1 })).json.errors[0].errorCode,
    ).toBe('RPR-RGS-015');
  });
});

describe('GraphQL', () => {
  it('syncs, searches and lists registrations with their transactions (batched), for the roles that may', async () => {
    const id = rid();
    const synced = await t.graphql(
      'mutation($ref: String!, $ts: DateTime!, $data: String!) { syncRegistrations(input: { centerMachineRefId: $ref, timestamp: $ts, data: $data }) { registrationSyncResult { response { registrationId status } errors { errorCode } } userErrors { field code message } } }',
      { ref: '10001_10001', ts: new Date().toISOString(), data: JSON.parse(syncBody([record(id), record('123')])) },
      who.officer1,
    );
    expect(synced.data.syncRegistrations.registrationSyncResult).toEqual({
      response: [{ registrationId: id, status: 'SUCCESS' }],
      errors: [{ errorCode: 'RPR-RGS-009' }],
    });
    const statuses = await t.graphql(
      'query($r: [RegistrationIdInput!]!) { registrationStatuses(request: $r) { response { statusCode } } }',
      { r: [{ registrationId: id }] },
      who.officer1,
    );
    expect(statuses.data.registrationStatuses.response).toEqual([{ statusCode: 'UPLOAD_PENDING' }]);
    const none = await t.graphql('{ registrationTransactions(langCode: "eng", registrationId: "x") { id } }', {}, who.officer1);
    expect(refusalOf(none)!.code).toBe('RPR-RTS-001');

    const list = await t.graphql(
      `query($f: RegistrationFilter) { registrations(first: 50, filter: $f) { totalCount edges { node { registrationId status stage centreId machineId packetSize
        transactions(first: 5) { totalCount edges { node { transactionTypeCode } } } } } } }`,
      { f: { status: 'UPLOAD_PENDING', centreId: '10001' } },
      who.admin,
    );
    expect(list.errors).toBeUndefined();
    const nodes = list.data.registrations.edges.map((edge: any) => edge.node);
    expect(list.data.registrations.totalCount).toBeGreaterThanOrEqual(5);
    expect(nodes[0]).toMatchObject({ registrationId: id, status: 'UPLOAD_PENDING', stage: null, centreId: '10001', machineId: '10001', packetSize: 1234 });
    expect(nodes.some((node: any) => node.transactions.totalCount === 1)).toBe(true);

    const one = await t.graphql('query($id: ID!) { registration(registrationId: $id) { registrationId supervisorStatus optionalValues } }', { id }, who.admin);
    expect(one.data.registration).toEqual({ registrationId: id, supervisorStatus: 'APPROVED', optionalValues: [{ key: 'CENTERNAME', value: 'Center A' }] });
    const refused = await t.graphql('{ registrations { totalCount } }', {}, who.officer1);
    expect(refusalOf(refused)!.code).toBe('KER-ATH-403');
  });
});

describe('packet upload scope', () => {
  it("lets an officer upload their own centre's packets only: another centre's RID reads as not synced (RPR-PKR-001)", async () => {
    const client = await registrationClient(t, admin);
    const built = client.build('scope-officer');
    await client.sync([syncRecordOf(built.rid, built.sealed)]);
    const upload = async (headers: Record<string, string>) => {
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(built.sealed)]), `${built.rid}.zip`);
      const response = await fetch(`${t.baseUrl}/registrationprocessor/v1/packetreceiver/registrationpackets`, { method: 'POST', body: form, headers });
      return { status: response.status, json: await response.json() };
    };
    await expectRejected(t, () => upload(who.officer2), 'RPR-PKR-001');
    expect((await upload(who.officer1)).json.response).toEqual({ status: 'Packet is in PACKET_RECEIVED status' });
  });
});
