import { beforeAll, describe, expect, it } from 'vitest';
import { expectError, expectRejected } from '../support/assertions.js';
import { idrepoCalls, NAME, newRid } from '../support/identities.js';
import { bearer, cookieHeader, envelopeOf, type TestPlatform, useTestPlatform } from '../support/platform.js';
import { lastMessage, otpIn } from '../support/outbox.js';
import { residentEmail, residentLogin, residentOtpLogin, sendResidentOtp } from '../support/residents.js';
import { userLogin } from '../support/users.js';

let t: TestPlatform;
useTestPlatform({ PLATFORM_SAMPLE_DATA: 'true' }, (platform) => {
  t = platform;
});

type Credentials = Record<string, string>;
const { ok, newUin, create, send } = idrepoCalls(() => t);
const LOCKS = '/idrepository/v1/identity/authtypes/status';

let processor: Credentials;
let operator: Credentials;
beforeAll(async () => {
  processor = cookieHeader((await t.clientToken(['REGISTRATION_PROCESSOR'], 'registrationprocessor')).token);
  operator = bearer((await t.clientToken(['ID_REPOSITORY'], 'admin')).token);
});

/** A stored identity with these contact details; its UIN and identity id. */
async function identityWith(contact: { email?: string; phone?: string }): Promise<{ uin: string; identityId: string }> {
  const uin = newUin();
  await ok(create(processor, uin, newRid(), contact));
  return { uin, identityId: (await t.platform.deps.services.identities.find({ uin })).id };
}

/** A VID of the identity through the VID service (POST /idrepository/v1/vid). */
async function vidOf(uin: string): Promise<string> {
  const { json } = await t.request('POST', '/idrepository/v1/vid', { body: envelopeOf({ vidType: 'Perpetual', UIN: uin }), headers: processor });
  expect(json.errors, JSON.stringify(json.errors)).toBeOneOf([null, []]);
  return json.response.VID as string;
}

const lock = (headers: Credentials, individualId: string, individualIdType = 'UIN') =>
  t.request('POST', LOCKS, {
    body: {
      id: 'platform.identity.authtype.status.update',
      version: '1.0',
      requestTime: new Date(t.clock.now()).toISOString(),
      consentObtained: true,
      individualId,
      individualIdType,
      request: { authTypes: [{ authType: 'otp', isLocked: true }] },
    },
    headers,
  });

describe('resident login by UIN or VID (sendotp useridtype UIN, useridOTP)', () => {
  it("sends the OTP to the identity's e-mail, signs the resident in, and the token speaks for the identity by its opaque id", async () => {
    const email = residentEmail();
    const { uin, identityId } = await identityWith({ email });
    const sent = await sendResidentOtp(t, uin);
    expect(sent.json.response).toEqual({ status: 'success', message: 'OTP has been sent successfully' });
    const message = await lastMessage(t, email);
    expect(message.channel).toBe('EMAIL');
    // The message greets the resident by name and never repeats the number.
    expect(message.body).toContain(NAME);
    expect(message.body).not.toContain(uin);

    const { json, headers } = await residentOtpLogin(t, uin, otpIn(message.body));
    expect(json.response).toMatchObject({ status: 'success', message: 'OTP validated successfully' });
    expect(headers.get('set-cookie')).toMatch(/^Authorization=Platform-Token[^;]+;.*HttpOnly/);
    // A resident's session is its access token alone: no refresh token.
    expect(headers.get('set-cookie')).not.toContain('refresh_token');
    const token = /Authorization=Platform-Token([^;]+)/.exec(headers.get('set-cookie')!)![1]!;
    const validated = await t.request('GET', '/v1/authmanager/authorize/admin/validateToken', { headers: cookieHeader(token) });
    expect(validated.json.response).toMatchObject({ userId: identityId, role: 'RESIDENT' });

    // The resident acts on their own identity: a lock by UIN is accepted.
    expect((await lock(cookieHeader(token), uin)).json.errors).toBeNull();
    // An admin sees the session as a resident's, named by the identity.
    const sessions = await t.graphql(
      '{ sessions(first: 5, filter: {subjectType: RESIDENT}) { edges { node { subject subjectType appId user { userId } } } } }',
      {},
      bearer(await t.adminToken()),
    );
    expect(sessions.errors).toBeUndefined();
    expect(sessions.data.sessions.edges.map((edge: any) => edge.node)).toContainEqual({
      subject: identityId,
      subjectType: 'RESIDENT',
      appId: 'resident',
      user: null,
    });
  });

  it('signs a resident in by VID, and by phone; both channels at once', async () => {
    const email = residentEmail();
    const phone = '9876543210';
    const { uin } = await identityWith({ email, phone });
    const vid = await vidOf(uin);
    const byVid = await residentLogin(t, vid, email);
    expect((await lock(byVid.cookie, vid, 'VID')).json.errors).toBeNull();

    expect((await sendResidentOtp(t, uin, { otpChannel: ['phone'] })).json.errors).toBeNull();
    const sms = await lastMessage(t, phone);
    expect(sms.channel).toBe('SMS');
    const { json } = await residentOtpLogin(t, uin, otpIn(sms.body));
    expect(json.errors).toBeNull();

    expect((await sendResidentOtp(t, uin, { otpChannel: ['email', 'phone'] })).json.errors).toBeNull();
    expect(otpIn((await lastMessage(t, email)).body)).toBe(otpIn((await lastMessage(t, phone)).body));
  });

  it('works through GraphQL too: sendOtp and loginWithOtp', async () => {
    const email = residentEmail();
    const { uin } = await identityWith({ email });
    const sent = await t.graphql(
      'mutation($u: ID!) { sendOtp(input: { userId: $u, otpChannel: ["email"], useridtype: "UIN", appId: "resident" }) { otpSent { status } userErrors { field code message } } }',
      {
        u: uin,
      },
    );
    expect(sent.errors).toBeUndefined();
    const login = await t.graphql(
      'mutation($u: ID!, $o: String!) { loginWithOtp(input: { userId: $u, otp: $o, appId: "resident" }) { otpLogin { token userId } userErrors { field code message } } }',
      {
        u: uin,
        o: otpIn((await lastMessage(t, email)).body),
      },
    );
    expect(login.errors).toBeUndefined();
    expect(login.data.loginWithOtp.otpLogin.userId).toBe(uin);
    const me = await t.graphql(
      '{ authTypeStatus(individualId: "' + uin + '", individualIdType: "UIN") { authType } }',
      {},
      bearer(login.data.loginWithOtp.otpLogin.token),
    );
    expect(me.errors).toBeUndefined();
    expect(me.data.authTypeStatus).toEqual([]);
  });

  it('records the read of the contact details in the identity’s audit trail', async () => {
    const email = residentEmail();
    const { uin } = await identityWith({ email });
    await sendResidentOtp(t, uin);
    const trail = await t.graphql('query($u: String) { identity(uin: $u) { reads { edges { node { readBy parts lookup } } } } }', { u: uin }, operator);
    expect(trail.data.identity.reads.edges.map((edge: any) => edge.node)).toContainEqual({ readBy: 'authmanager', parts: ['contact'], lookup: 'UIN' });
  });

  it('refuses unknown, malformed, blocked or other-realm numbers as a user not found, changing nothing', async () => {
    const email = residentEmail();
    const { uin } = await identityWith({ email });
    await expectRejected(t, () => sendResidentOtp(t, newUin()), 'AUTH_ERR_USER_NOT_FOUND');
    await expectRejected(t, () => sendResidentOtp(t, '12345'), 'AUTH_ERR_USER_NOT_FOUND');
    // UIN users belong to the resident realm only.
    await expectRejected(t, () => sendResidentOtp(t, uin, { appId: 'registrationclient' }), 'AUTH_ERR_USER_NOT_FOUND');
    await expectRejected(t, () => sendResidentOtp(t, uin, { useridtype: 'RID' }), 'AUTH_ERR_USER_NOT_FOUND');
    await expectRejected(t, () => sendResidentOtp(t, uin, { appId: 'nowhere' }), 'KER-ATH-026');

    // An identity without the channel's address.
    const { json } = await sendResidentOtp(t, uin, { otpChannel: ['phone'] });
    expectError(json, 'AUTH_ERR_CHANNELPATH_NOT_FOUND', /mobile number/);

    // A BLOCKED identity signs nobody in, even with an OTP sent before the block.
    await sendResidentOtp(t, uin);
    const otp = otpIn((await lastMessage(t, email)).body);
    await ok(send(processor, 'PATCH', '/', { registrationId: newRid(), identity: { UIN: uin }, status: 'BLOCKED' }));
    await expectRejected(t, () => residentOtpLogin(t, uin, otp), 'AUTH_ERR_USER_NOT_FOUND');
    await expectRejected(t, () => sendResidentOtp(t, uin), 'AUTH_ERR_USER_NOT_FOUND');
  });

  it("keeps each OTP to the number it was sent for: not another resident's, not the same resident's VID", async () => {
    const a = residentEmail();
    const first = await identityWith({ email: a });
    const second = await identityWith({ email: residentEmail() });
    const vid = await vidOf(first.uin);
    await sendResidentOtp(t, first.uin);
    const otp = otpIn((await lastMessage(t, a)).body);
    expectError((await residentOtpLogin(t, second.uin, otp)).json, 'AUTH_ERR_INVALIDOTP');
    expectError((await residentOtpLogin(t, vid, otp)).json, 'AUTH_ERR_INVALIDOTP');
    // ... nor in another realm, where the number is no resident's
    expectError((await residentOtpLogin(t, first.uin, otp, 'admin')).json, 'AUTH_ERR_INVALIDOTP');
    expect((await residentOtpLogin(t, first.uin, otp)).json.errors).toBeNull();
  });

  it('lets one of parallel logins with the same OTP through', async () => {
    const email = residentEmail();
    const { uin } = await identityWith({ email });
    await sendResidentOtp(t, uin);
    const otp = otpIn((await lastMessage(t, email)).body);
    const answers = await Promise.all(Array.from({ length: 6 }, () => residentOtpLogin(t, uin, otp)));
    const codes = answers.map(({ json }) => (json.errors?.length ? json.errors[0].errorCode : 'OK'));
    expect(codes.filter((code) => code === 'OK')).toHaveLength(1);
    expect(codes.filter((code) => code !== 'OK').every((code) => code === 'AUTH_ERR_INVALIDOTP')).toBe(true);
  });

  it('gives a user or client named like a UIN, with the RESIDENT role, no reach into that identity', async () => {
    const { uin } = await identityWith({ email: residentEmail() });
    const namedLikeUin = await userLogin(t, uin, ['RESIDENT'], 'resident');
    const client = cookieHeader((await t.clientToken(['RESIDENT'], 'resident')).token);
    for (const headers of [namedLikeUin.cookie, client]) {
      const before = await t.snapshot();
      expect((await lock(headers, uin)).json.errors).toEqual([expect.objectContaining({ errorCode: 'IDA-MLC-018' })]);
      expect(await t.snapshot()).toEqual(before);
      await expectRejected(
        t,
        () => t.request('POST', '/idrepository/v1/vid', { body: envelopeOf({ vidType: 'Temporary', UIN: uin }), headers }),
        'IDR-IDC-011',
      );
    }
  });

  it('leaves no UIN or VID in clear in any table after logins by both', async () => {
    const email = residentEmail();
    const { uin } = await identityWith({ email });
    const vid = await vidOf(uin);
    await residentLogin(t, uin, email);
    await residentLogin(t, vid, email);
    await sendResidentOtp(t, uin, { otpChannel: ['phone'] });
    const prisma = t.platform.deps.prisma;
    const tables = await prisma.$queryRawUnsafe<{ table_name: string }[]>(
      "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'",
    );
    expect(tables.length).toBeGreaterThan(20);
    for (const { table_name: table } of tables) {
      const rows = await prisma.$queryRawUnsafe<unknown[]>(`SELECT * FROM "${table}"`);
      const dump = JSON.stringify(rows, (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value));
      expect(dump.includes(uin), `${table} holds the UIN`).toBe(false);
      expect(dump.includes(vid), `${table} holds the VID`).toBe(false);
    }
  });
});
