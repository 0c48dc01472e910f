import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { generateNumber, vidRules } from '../../lib/numbers.js';
import { TIMESTAMP } from '../support/assertions.js';
import { idrepoCalls, newRid } from '../support/identities.js';
import { bearer, cookieHeader, type TestPlatform, useTestPlatform } from '../support/platform.js';
import { residentEmail, residentLogin, sendResidentOtp } from '../support/residents.js';
import type { Login } from '../support/users.js';
import { refusalCode, refusalOf } from '../support/refusals.js';

let t: TestPlatform;
useTestPlatform({ PLATFORM_SAMPLE_DATA: 'true' }, (platform) => {
  t = platform;
});

type Credentials = Record<string, string>;
const { send, ok, newUin, create } = idrepoCalls(() => t);
const PATH = '/idrepository/v1/identity/authtypes/status';
const UPDATE_ID = 'platform.identity.authtype.status.update';
const READ_ID = 'platform.identity.authtype.status.read';
const HOUR = 3_600_000;

let processor: Credentials;
let ida: Credentials;
let operator: Credentials;

beforeAll(async () => {
  processor = cookieHeader((await t.clientToken(['REGISTRATION_PROCESSOR'], 'registrationprocessor')).token);
  ida = cookieHeader((await t.clientToken(['ID_AUTHENTICATION'], 'ida')).token);
  operator = cookieHeader((await t.clientToken(['ID_REPOSITORY'], 'admin')).token);
});

const prisma = () => t.platform.deps.prisma;

/** A stored identity and its resident, signed in by OTP with their UIN. */
async function resident(): Promise<{ uin: string; email: string; identityId: string; login: Login }> {
  const uin = newUin();
  const email = residentEmail();
  await ok(create(processor, uin, newRid(), { email }));
  const identityId = (await t.platform.deps.services.identities.find({ uin })).id;
  return { uin, email, identityId, login: await residentLogin(t, uin, email) };
}

/** A VID of the identity, stored as the VID area stores them (HMAC + ciphertext). */
async function addVid(identityId: string, over: { status?: string; expiresAt?: Date | null } = {}): Promise<string> {
  const vid = generateNumber(vidRules(t.platform.deps.globalConfiguration));
  const cipher = t.platform.deps.services.idrepoCipher;
  const id = randomUUID();
  await prisma().vid.create({
    data: {
      id,
      vidHash: cipher.lookup(vid),
      vidEncrypted: cipher.encrypt(Buffer.from(vid, 'utf8'), `vid/${id}`),
      identityId,
      vidType: 'Perpetual',
      status: over.status ?? 'ACTIVE',
      expiresAt: over.expiresAt ?? null,
      createdBy: 'test',
      createdAt: new Date(),
    },
  });
  return vid;
}

type Change = { authType: string; authSubType?: string; isLocked: boolean };
const LOCK_OTP_AND_FINGER: Change[] = [
  { authType: 'otp', isLocked: true },
  { authType: 'bio', authSubType: 'Finger', isLocked: true },
];

/** The request as MOSIP's resident services send it: the individual beside `request`. */
const bodyOf = (individualId: string, authTypes: unknown = LOCK_OTP_AND_FINGER, over: Record<string, unknown> = {}) => ({
  id: UPDATE_ID,
  version: '1.0',
  requestTime: t.clock.now().toISOString(),
  consentObtained: true,
  individualId,
  individualIdType: 'UIN',
  request: { authTypes },
  ...over,
});
const update = (headers: Credentials, body: unknown) => t.request('POST', PATH, { body, headers });
const read = (headers: Credentials, type: string, id: string) => t.request('GET', `${PATH}/individualIdType/${type}/individualId/${id}`, { headers });

/** The variant envelope of a success: no `metadata`, `responseTime`, errors null. */
function expectAccepted(json: any, id: string): any {
  expect(json.errors, JSON.stringify(json.errors)).toBeNull();
  expect(json.id).toBe(id);
  expect(json.version).toBe('1.0');
  expect(json.responseTime).toMatch(TIMESTAMP);
  expect(json).not.toHaveProperty('responsetime');
  expect(json).not.toHaveProperty('metadata');
  return json.response;
}

const lockRows = () => prisma().authTypeLock.findMany({ orderBy: [{ identityId: 'asc' }, { authType: 'asc' }] });

/** Refused in the variant envelope with `code`, HTTP 200, and nothing changed: no row anywhere, no lock state. */
async function expectRefused(call: () => Promise<{ status: number; json: any }>, code: string, message?: RegExp, id = UPDATE_ID): Promise<any> {
  const [before, locksBefore] = [await t.snapshot(), await lockRows()];
  const { status, json } = await call();
  expect(status).toBe(200);
  expect(json.errors, JSON.stringify(json)).toHaveLength(1);
  expect(json).toEqual({
    id,
    version: expect.any(String),
    responseTime: expect.stringMatching(TIMESTAMP),
    errors: [{ errorCode: code, errorMessage: expect.any(String), actionMessage: expect.any(String) }],
  });
  if (message) expect(json.errors[0].errorMessage).toMatch(message);
  expect(await t.snapshot()).toEqual(before);
  expect(await lockRows()).toEqual(locksBefore);
  return json.errors[0];
}

describe('authentication-type locks: lock, unlock, read', () => {
  it('a resident locks and unlocks by UIN; the state reads back by REST and GraphQL', async () => {
    const { uin, identityId, login } = await resident();
    // nothing locked yet
    expect(expectAccepted((await read(login.cookie, 'UIN', uin)).json, READ_ID)).toEqual({ authTypes: [] });

    const { json } = await update(login.cookie, bodyOf(uin));
    expect(json).toEqual({ id: UPDATE_ID, version: '1.0', responseTime: expect.stringMatching(TIMESTAMP), errors: null });
    expect(expectAccepted((await read(login.cookie, 'UIN', uin)).json, READ_ID)).toEqual({
      authTypes: [
        { authType: 'bio', authSubType: 'Finger', isLocked: true },
        { authType: 'otp', isLocked: true },
      ],
    });

    t.clock.advance(60_000);
    expectAccepted(
      (
        await update(
          login.cookie,
          bodyOf(uin, [
            { authType: 'OTP', isLocked: false },
            { authType: 'demo', isLocked: true },
            { authType: 'bio', authSubType: 'face', isLocked: true },
          ]),
        )
      ).json,
      UPDATE_ID,
    );
    expect(expectAccepted((await read(login.cookie, 'UIN', uin)).json, READ_ID).authTypes).toEqual([
      { authType: 'bio', authSubType: 'Face', isLocked: true },
      { authType: 'bio', authSubType: 'Finger', isLocked: true },
      { authType: 'demo', isLocked: true },
      { authType: 'otp', isLocked: false },
    ]);

    // Stored per identity, never naming the resident by their UIN.
    const rows = await prisma().authTypeLock.findMany({ where: { identityId }, orderBy: { authType: 'asc' } });
    expect(rows.map((row) => [row.authType, row.locked])).toEqual([
      ['bio-Face', true],
      ['bio-Finger', true],
      ['demo', true],
      ['otp', false],
    ]);
    expect(rows.every((row) => row.updatedBy === 'RESIDENT')).toBe(true);
    expect(JSON.stringify(rows)).not.toContain(uin);
    expect(rows.find((row) => row.authType === 'otp')!.updatedAt.getTime()).toBe(
      rows.find((row) => row.authType === 'bio-Finger')!.updatedAt.getTime() + 60_000,
    );

    // GraphQL: the same state, for the resident and (any identity) for ID authentication and the operators.
    const query =
      'query($id: String!, $type: String) { authTypeStatus(individualId: $id, individualIdType: $type) { authType authSubType isLocked updatedAt } }';
    const mine = await t.graphql(query, { id: uin, type: 'UIN' }, bearer(login.token));
    expect(mine.errors).toBeUndefined();
    expect(mine.data.authTypeStatus).toHaveLength(4);
    expect(mine.data.authTypeStatus[0]).toEqual({ authType: 'BIO', authSubType: 'FACE', isLocked: true, updatedAt: expect.stringMatching(TIMESTAMP) });
    for (const reader of [ida, operator]) {
      const { json: state } = await read(reader, 'UIN', uin);
      expect(expectAccepted(state, READ_ID).authTypes).toHaveLength(4);
    }
  });

  it('by VID: a resident locks through one of their VIDs, reads by UIN; a resident logged in with a VID reaches their identity too', async () => {
    const { uin, email, identityId, login } = await resident();
    const vid = await addVid(identityId);
    expectAccepted((await update(login.cookie, bodyOf(vid, [{ authType: 'demo', isLocked: true }], { individualIdType: 'VID' }))).json, UPDATE_ID);
    expect(expectAccepted((await read(login.cookie, 'UIN', uin)).json, READ_ID).authTypes).toEqual([{ authType: 'demo', isLocked: true }]);
    expect(expectAccepted((await read(login.cookie, 'VID', vid)).json, READ_ID).authTypes).toEqual([{ authType: 'demo', isLocked: true }]);

    // individualIdType left out: the spec's default, VID
    const { individualIdType: _omitted, ...withoutType } = bodyOf(vid, [{ authType: 'bio', isLocked: true }]);
    expectAccepted((await update(login.cookie, withoutType)).json, UPDATE_ID);

    // The resident may sign in with the VID itself.
    const vidLogin = await residentLogin(t, vid, email);
    expectAccepted((await update(vidLogin.cookie, bodyOf(uin, [{ authType: 'bio', isLocked: false }]))).json, UPDATE_ID);
    expect(expectAccepted((await read(vidLogin.cookie, 'UIN', uin)).json, READ_ID).authTypes).toEqual([
      { authType: 'bio', isLocked: false },
      { authType: 'demo', isLocked: true },
    ]);

    // A revoked or expired VID names nothing: IDA-MLC-018, as an unknown one.
    const revoked = await addVid(identityId, { status: 'REVOKED' });
    const expired = await addVid(identityId, { expiresAt: new Date(t.clock.now().getTime() - 1000) });
    for (const gone of [revoked, expired, generateNumber(vidRules(t.platform.deps.globalConfiguration))]) {
      await expectRefused(
        () => update(login.cookie, bodyOf(gone, LOCK_OTP_AND_FINGER, { individualIdType: 'VID' })),
        'IDA-MLC-018',
        /^VID not available in database$/,
      );
    }
    // and a revoked VID signs nobody in
    expect((await sendResidentOtp(t, revoked)).json.errors).toEqual([expect.objectContaining({ errorCode: 'AUTH_ERR_USER_NOT_FOUND' })]);
  });
});

describe('authentication-type locks: refusals', () => {
  it('answers every IDA-MLC code of the spec, changing nothing', async () => {
    const { uin, login } = await resident();
    const as = (body: unknown) => () => update(login.cookie, body);
    const now = () => t.clock.now().getTime();

    // IDA-MLC-001: outside the allowed window (24 h back, a little ahead), by the platform's clock
    await expectRefused(as(bodyOf(uin, LOCK_OTP_AND_FINGER, { requestTime: new Date(now() - 25 * HOUR).toISOString() })), 'IDA-MLC-001', /24 hours/);
    await expectRefused(as(bodyOf(uin, LOCK_OTP_AND_FINGER, { requestTime: new Date(now() + 10 * 60_000).toISOString() })), 'IDA-MLC-001');
    // the platform's clock decides: a request made now is ahead of a clock an hour behind
    const current = bodyOf(uin);
    t.clock.advance(-HOUR);
    await expectRefused(as(current), 'IDA-MLC-001');
    t.clock.set(new Date());
    // an offset as MOSIP's clients write it is accepted
    const offset = new Date(now() + 5.5 * HOUR).toISOString().replace('Z', '+05:30');
    expectAccepted((await update(login.cookie, bodyOf(uin, [{ authType: 'otp', isLocked: false }], { requestTime: offset }))).json, UPDATE_ID);

    // IDA-MLC-002: not a UIN
    await expectRefused(as(bodyOf('1234567890')), 'IDA-MLC-002', /^Invalid UIN$/);
    // IDA-MLC-006: each required member missing
    const full = bodyOf(uin) as Record<string, unknown>;
    for (const field of ['requestTime', 'consentObtained', 'individualId', 'request']) {
      const { [field]: _dropped, ...rest } = full;
      const item = await expectRefused(as(rest), 'IDA-MLC-006');
      expect(item.errorMessage).toContain(field);
    }
    await expectRefused(as(bodyOf(uin, [{ isLocked: true }])), 'IDA-MLC-006', /authType/);
    await expectRefused(as(bodyOf(uin, [{ authType: 'otp' }])), 'IDA-MLC-006', /isLocked/);
    await expectRefused(() => t.request('POST', PATH, { headers: login.cookie }), 'IDA-MLC-006');
    // IDA-MLC-007: a request that cannot be read
    await expectRefused(() => t.request('POST', PATH, { raw: '{"individualId": ', headers: login.cookie }), 'IDA-MLC-007');
    await expectRefused(as({ ...full, request: 'lock everything' }), 'IDA-MLC-007');
    // IDA-MLC-009: malformed members
    await expectRefused(as(bodyOf(uin, [{ authType: 'pin', isLocked: true }])), 'IDA-MLC-009', /authTypes/);
    await expectRefused(as(bodyOf(uin, [{ authType: 'otp', authSubType: 'Finger', isLocked: true }])), 'IDA-MLC-009');
    await expectRefused(as(bodyOf(uin, [{ authType: 'bio', authSubType: 'Palm', isLocked: true }])), 'IDA-MLC-009');
    await expectRefused(
      as(
        bodyOf(uin, [
          { authType: 'otp', isLocked: true },
          { authType: 'OTP', isLocked: false },
        ]),
      ),
      'IDA-MLC-009',
      /twice/,
    );
    await expectRefused(as(bodyOf(uin, [])), 'IDA-MLC-009');
    await expectRefused(as(bodyOf(uin, [{ authType: 'otp', isLocked: 'yes' }])), 'IDA-MLC-009');
    await expectRefused(as(bodyOf(uin, LOCK_OTP_AND_FINGER, { consentObtained: 'true' })), 'IDA-MLC-009', /consentObtained/);
    await expectRefused(as(bodyOf(uin, LOCK_OTP_AND_FINGER, { requestTime: 'yesterday' })), 'IDA-MLC-009', /requestTime/);
    await expectRefused(as(bodyOf('12345', LOCK_OTP_AND_FINGER, { individualIdType: 'VID' })), 'IDA-MLC-009', /individualId/);
    // IDA-MLC-012: no consent
    await expectRefused(as(bodyOf(uin, LOCK_OTP_AND_FINGER, { consentObtained: false })), 'IDA-MLC-012', /Consent/);
    // IDA-MLC-015: an identity type the country does not use
    await expectRefused(as(bodyOf(uin, LOCK_OTP_AND_FINGER, { individualIdType: 'RID' })), 'IDA-MLC-015', /RID not configured/);
    await expectRefused(() => read(login.cookie, 'USERID', uin), 'IDA-MLC-015', undefined, READ_ID);
    // IDA-MLC-018: a UIN of the right form that no identity has
    await expectRefused(as(bodyOf(newUin())), 'IDA-MLC-018', /^UIN not available in database$/);

    // Nothing of the above changed the state.
    expect(expectAccepted((await read(login.cookie, 'UIN', uin)).json, READ_ID).authTypes).toEqual([{ authType: 'otp', isLocked: false }]);
  });

  it('a deactivated identity is IDA-MLC-003 for its resident; its state still reads', async () => {
    const { uin, login } = await resident();
    expectAccepted((await update(login.cookie, bodyOf(uin))).json, UPDATE_ID);
    await ok(send(processor, 'PATCH', '/', { registrationId: newRid(), identity: { UIN: uin }, status: 'DEACTIVATED' }));
    await expectRefused(() => update(login.cookie, bodyOf(uin, [{ authType: 'otp', isLocked: false }])), 'IDA-MLC-003', /deactivated/);
    expect(expectAccepted((await read(ida, 'UIN', uin)).json, READ_ID).authTypes).toHaveLength(2);
  });

  it('another resident is answered as for an unknown number; other roles are refused (KER-ATH-403)', async () => {
    const a = await resident();
    const b = await resident();
    const vidOfA = await addVid(a.identityId);
    const unknown = await expectRefused(() => update(b.login.cookie, bodyOf(newUin())), 'IDA-MLC-018');
    const others = await expectRefused(() => update(b.login.cookie, bodyOf(a.uin)), 'IDA-MLC-018');
    expect(others).toEqual(unknown);
    await expectRefused(() => update(b.login.cookie, bodyOf(vidOfA, LOCK_OTP_AND_FINGER, { individualIdType: 'VID' })), 'IDA-MLC-018');
    await expectRefused(() => read(b.login.cookie, 'UIN', a.uin), 'IDA-MLC-018', /^UIN not available in database$/, READ_ID);
    await expectRefused(() => read(b.login.cookie, 'VID', vidOfA), 'IDA-MLC-018', undefined, READ_ID);
    // A deactivated identity of another resident does not show as such.
    await ok(send(processor, 'PATCH', '/', { registrationId: newRid(), identity: { UIN: a.uin }, status: 'DEACTIVATED' }));
    await expectRefused(() => update(b.login.cookie, bodyOf(a.uin)), 'IDA-MLC-018');

    // Only residents change locks: operators, ID authentication and the processor read at most.
    for (const caller of [operator, ida, processor]) {
      await expectRefused(() => update(caller, bodyOf(b.uin)), 'KER-ATH-403');
    }
    await expectRefused(() => read(processor, 'UIN', b.uin), 'KER-ATH-403', undefined, READ_ID);
    const anonymous = await t.request('POST', PATH, { body: bodyOf(b.uin) });
    expect(anonymous.json.errors[0].errorCode).toMatch(/^KER-ATH-/);
    expect(anonymous.json).not.toHaveProperty('response');
  });
});

describe('authentication-type locks: GraphQL', () => {
  const mutation = `mutation($time: DateTime, $consent: Boolean!, $id: String!, $type: String, $types: [AuthTypeStatusInput!]!) {
    updateAuthTypeStatus(input: { requestTime: $time, consentObtained: $consent, individualId: $id, individualIdType: $type, authTypes: $types }) { authTypeStatuses { authType authSubType isLocked } userErrors { field code message } }
  }`;

  it('updateAuthTypeStatus for the resident, the same codes; Identity.authTypeLocks for the repository and ID authentication', async () => {
    const { uin, identityId, login } = await resident();
    const other = await resident();
    const graphLocks = [
      { authType: 'OTP', isLocked: true },
      { authType: 'BIO', authSubType: 'FINGER', isLocked: true },
    ];
    const vars = (over: Record<string, unknown> = {}) => ({ consent: true, id: uin, type: 'UIN', types: graphLocks, ...over });
    const locked = await t.graphql(mutation, vars(), bearer(login.token));
    expect(locked.errors).toBeUndefined();
    expect(locked.data.updateAuthTypeStatus.authTypeStatuses).toEqual([
      { authType: 'BIO', authSubType: 'FINGER', isLocked: true },
      { authType: 'OTP', authSubType: null, isLocked: true },
    ]);

    const codeOf = async (variables: Record<string, unknown>, headers: Credentials = bearer(login.token)) => {
      const before = await lockRows();
      const answer = await t.graphql(mutation, variables, headers);
      expect(await lockRows()).toEqual(before);
      return refusalCode(answer);
    };
    // A value the graph's types require is refused before anything runs; REST answers IDA-MLC-006 for it (above).
    expect(await codeOf(vars({ consent: undefined }))).toBe('BAD_USER_INPUT');
    expect(await codeOf(vars({ consent: false }))).toBe('IDA-MLC-012');
    expect(await codeOf(vars({ time: new Date(t.clock.now().getTime() - 2 * 24 * HOUR).toISOString() }))).toBe('IDA-MLC-001');
    // A type the graph has no value for is refused by its enum (REST: IDA-MLC-009); a modality on a type that takes none is IDA-MLC-009.
    expect(await codeOf(vars({ types: [{ authType: 'KYC', isLocked: true }] }))).toBe('BAD_USER_INPUT');
    expect(await codeOf(vars({ types: [{ authType: 'OTP', authSubType: 'FACE', isLocked: true }] }))).toBe('IDA-MLC-009');
    expect(await codeOf(vars({ id: other.uin }))).toBe('IDA-MLC-018');
    expect(await codeOf(vars(), operator)).toBe('KER-ATH-403');

    const identityQuery = 'query($uin: String) { identity(uin: $uin) { id authTypeLocks { authType authSubType isLocked } } }';
    const seen = await t.graphql(identityQuery, { uin }, operator);
    expect(seen.errors).toBeUndefined();
    expect(seen.data.identity).toEqual({
      id: identityId,
      authTypeLocks: [
        { authType: 'BIO', authSubType: 'FINGER', isLocked: true },
        { authType: 'OTP', authSubType: null, isLocked: true },
      ],
    });
    const none = await t.graphql(identityQuery, { uin: other.uin }, operator);
    expect(none.data.identity.authTypeLocks).toEqual([]);
    // ID authentication reads the state of any identity by number.
    const byIda = await t.graphql('query($id: String!) { authTypeStatus(individualId: $id, individualIdType: "UIN") { authType isLocked } }', { id: uin }, ida);
    expect(byIda.data.authTypeStatus).toHaveLength(2);
  });

  it('takes requestTime as a DateTime through GraphQL, while REST answers the wire text with IDA-MLC-009 and IDA-MLC-001 as before', async () => {
    const { uin, login } = await resident();
    const headers = bearer(login.token);
    const vars = (time: unknown) => ({ time, consent: true, id: uin, type: 'UIN', types: [{ authType: 'DEMO', isLocked: true }] });
    const now = t.clock.now().getTime();
    // An ISO instant is taken, with an offset and without a fraction too; absent (null) stays unchecked.
    const offset = new Date(now + 5.5 * HOUR).toISOString().replace(/\.\d{3}Z$/, '+05:30');
    for (const time of [new Date(now).toISOString(), offset, null]) {
      const answer = await t.graphql(mutation, vars(time), headers);
      expect(answer.errors).toBeUndefined();
      expect(answer.data.updateAuthTypeStatus).toEqual({ authTypeStatuses: [{ authType: 'DEMO', authSubType: null, isLocked: true }], userErrors: [] });
    }
    // The window is the service's, as before.
    const stale = await t.graphql(mutation, vars(new Date(now - 25 * HOUR).toISOString()), headers);
    expect(refusalOf(stale)).toEqual({ code: 'IDA-MLC-001', message: 'Request to be received at the platform within 24 hours' });
    // What is no instant GraphQL refuses itself, before the service runs, changing nothing.
    const before = await lockRows();
    for (const time of ['yesterday', '', '2026-02-30T00:00:00.000Z']) {
      const refused = await t.graphql(mutation, vars(time), headers);
      expect(refused.data ?? null).toBeNull();
      expect(refusalOf(refused)).toMatchObject({ code: 'BAD_USER_INPUT', message: expect.stringMatching(/DateTime/) });
    }
    const literal = await t.graphql(
      `mutation { updateAuthTypeStatus(input: { requestTime: "soon", consentObtained: true, individualId: "${uin}", individualIdType: "UIN", authTypes: [{ authType: OTP, isLocked: true }] }) { userErrors { code } } }`,
      {},
      headers,
    );
    // A literal that is no instant is refused too (the gateway's code for it is not this test's concern).
    expect(literal.data ?? null).toBeNull();
    expect(literal.errors).toHaveLength(1);
    expect(await lockRows()).toEqual(before);

    // REST: the wire's text, checked as before, same codes and messages.
    const as = (over: Record<string, unknown>) => () => update(login.cookie, bodyOf(uin, [{ authType: 'demo', isLocked: false }], over));
    for (const requestTime of ['yesterday', '2026-02-30T00:00:00.000Z']) {
      const item = await expectRefused(as({ requestTime }), 'IDA-MLC-009');
      expect(item.errorMessage).toBe("requestTime is invalid: an ISO 8601 date and time (yyyy-MM-dd'T'HH:mm:ss.SSSXXX)");
    }
    // A malformed request time is reported before what the service checks (no consent), as before.
    await expectRefused(as({ requestTime: 'yesterday', consentObtained: false }), 'IDA-MLC-009', /requestTime/);
    await expectRefused(
      as({ requestTime: new Date(now - 25 * HOUR).toISOString() }),
      'IDA-MLC-001',
      /^Request to be received at the platform within 24 hours$/,
    );
    // A stale request time is reported before a missing consent, as the service checks it first.
    await expectRefused(as({ requestTime: new Date(now - 25 * HOUR).toISOString(), consentObtained: false }), 'IDA-MLC-001');
    // An offset without a fraction, and a time without a zone (UTC), still go through.
    expectAccepted((await as({ requestTime: offset })()).json, UPDATE_ID);
    expectAccepted((await as({ requestTime: new Date(now).toISOString().slice(0, 19) })()).json, UPDATE_ID);
  });

  it('documents the variant envelope in the OpenAPI document', async () => {
    const { json } = await t.request('GET', '/v3/api-docs');
    const post = json.paths[PATH].post;
    expect(Object.keys(post.requestBody.content['application/json'].schema.properties)).toEqual(
      expect.arrayContaining(['requestTime', 'consentObtained', 'individualId', 'individualIdType', 'request']),
    );
    expect(Object.keys(post.responses['200'].content['application/json'].schema.properties)).toEqual(['id', 'version', 'responseTime', 'response', 'errors']);
  });
});
