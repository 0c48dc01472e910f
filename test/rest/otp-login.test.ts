import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectRejected } from '../support/assertions.js';
import { lastMessage, otpIn } from '../support/outbox.js';
import { bearer, cookieHeader, envelopeOf, startTestPlatform, type TestPlatform } from '../support/platform.js';
import { refusalOf } from '../support/refusals.js';

const SEND = '/v1/authmanager/authenticate/sendotp';
const LOGIN = '/v1/authmanager/authenticate/useridOTP';
const VALIDATE = '/v1/authmanager/authorize/admin/validateToken';

let t: TestPlatform;
let admin: Record<string, string>;
beforeAll(async () => {
  t = await startTestPlatform({ PLATFORM_THROTTLE_ACCOUNT: '5', PLATFORM_THROTTLE_ADDRESS: '0' });
  admin = bearer(await t.adminToken());
  await t.graphql(
    `mutation {
    a: createUser(input: {userId: "officer7", name: "Ada Officer", mail: "ada@example.org", mobile: "9876543210", roles: [REGISTRATION_OFFICER], appIds: ["registrationclient"]}) { user { userId } userErrors { field code message } }
    b: createUser(input: {userId: "mailonly", mail: "mailonly@example.org", roles: [RESIDENT], appIds: ["resident"]}) { user { userId } userErrors { field code message } }
    c: createUser(input: {userId: "francoise", name: "Françoise", mail: "francoise@example.org", langCode: "fra", roles: [RESIDENT], appIds: ["resident"]}) { user { userId } userErrors { field code message } }
  }`,
    {},
    admin,
  );
});
afterAll(async () => {
  await t?.close();
});

const sendOtp = (request: Record<string, unknown>) => t.request('POST', SEND, { body: envelopeOf({ context: 'auth-otp', ...request }) });
const otpLogin = (request: Record<string, unknown>) => t.request('POST', LOGIN, { body: envelopeOf(request) });

describe('OTP login end to end', () => {
  it('sendotp → OTP from the outbox → useridOTP → cookie → validateToken; the pre-registration user is created on first login, with no address at rest', async () => {
    const email = 'applicant@example.org';
    const applicants = () => t.platform.deps.prisma.user.findMany({ where: { userId: { startsWith: 'prereg-' } } });
    const before = (await applicants()).length;
    const sent = await sendOtp({ userId: email, otpChannel: ['email'], useridtype: 'USERID', appId: 'preregistration' });
    expect(sent.json.id).toBe('platform.authentication.sendotp');
    expect(sent.json.ver).toBe('1.0');
    expect(sent.json.response.status).toBe('success');
    // sending creates no user yet
    expect(await applicants()).toHaveLength(before);
    const message = await lastMessage(t, email);
    expect(message).toMatchObject({ channel: 'EMAIL', to: email, status: 'OUTBOX' });
    const otp = otpIn(message.body);
    expect(otp).toMatch(/^\d{6}$/);

    const login = await otpLogin({ userId: email, otp, appId: 'preregistration' });
    expect(login.json.id).toBe('platform.authentication.useridOTP');
    expect(login.json.response.status).toBe('success');
    const token = /Authorization=Platform-Token([^;]+)/.exec(login.headers.get('set-cookie') ?? '')?.[1];
    expect(login.headers.get('set-cookie')).toMatch(/HttpOnly/);
    const identity = await t.request('GET', VALIDATE, { headers: cookieHeader(token!) });
    // The user row names the applicant by an HMAC of the address; the address rides in their token only.
    const created = await applicants();
    expect(created).toHaveLength(before + 1);
    expect(JSON.stringify(created)).not.toContain('applicant@');
    expect(identity.json.response).toMatchObject({ userId: expect.stringMatching(/^prereg-[\w-]{40}$/), mail: email, role: 'INDIVIDUAL' });
    // the OTP is consumed
    expect((await otpLogin({ userId: email, otp, appId: 'preregistration' })).json.errors[0].errorCode).toBe('AUTH_ERR_INVALIDOTP');
  });

  it('logs an existing user in by phone, with the spec spelling `userid` accepted', async () => {
    await sendOtp({ userId: 'officer7', otpChannel: ['phone'], useridtype: 'USERID', appId: 'registrationclient' });
    const sms = await lastMessage(t, '9876543210');
    expect(sms.channel).toBe('SMS');
    expect(sms.body).toContain('Ada Officer');
    const login = await otpLogin({ userid: 'officer7', otp: otpIn(sms.body), appId: 'registrationclient' });
    expect(login.json.response.status).toBe('success');
    const token = /Authorization=Platform-Token([^;]+)/.exec(login.headers.get('set-cookie') ?? '')?.[1];
    const identity = await t.request('GET', VALIDATE, { headers: cookieHeader(token!) });
    expect(identity.json.response).toMatchObject({
      userId: 'officer7',
      mobile: '9876543210',
      mail: 'ada@example.org',
      role: 'REGISTRATION_OFFICER',
      name: 'Ada Officer',
    });
    // The session goes on by refresh, as after a password login: the refresh token comes as its cookie and works once.
    const refresh = /refresh_token=([^;]+); Max-Age=\d+; Path=\/v1\/authmanager\/authorize\/refreshToken/.exec(login.headers.get('set-cookie') ?? '')?.[1];
    expect(refresh).toBeTruthy();
    const refreshed = await t.request('POST', '/v1/authmanager/authorize/refreshToken/registrationclient', { headers: { cookie: `refresh_token=${refresh}` } });
    expect(refreshed.json.errors).toBeNull();
    expect(refreshed.headers.get('set-cookie')).toMatch(/Authorization=Platform-Token[^;]+/);
  });

  it('sends to both channels of an existing user', async () => {
    const sent = await sendOtp({ userId: 'officer7', otpChannel: ['email', 'phone'], useridtype: 'USERID', appId: 'registrationclient' });
    expect(sent.json.response.status).toBe('success');
    const [mail, sms] = [await lastMessage(t, 'ada@example.org'), await lastMessage(t, '9876543210')];
    expect(otpIn(mail.body)).toBe(otpIn(sms.body));
  });

  it('renders the template in the user language, with $user and custom template variables', async () => {
    await sendOtp({ userId: 'francoise', otpChannel: ['email'], useridtype: 'USERID', appId: 'resident' });
    const french = await lastMessage(t, 'francoise@example.org');
    expect(french.subject).toBe('Votre mot de passe à usage unique');
    expect(french.body).toContain('Bonjour Françoise');
    const saved = await t.graphql(
      `mutation { saveNotificationTemplate(input: { code: "auth-otp", langCode: "eng", channel: EMAIL, subject: "Code for $user", body: "Hello $user from $centre: $otp" }) { notificationTemplate { code } userErrors { field code message } } }`,
      {},
      admin,
    );
    expect(saved.errors).toBeUndefined();
    await sendOtp({ userId: 'mailonly', otpChannel: ['email'], useridtype: 'USERID', appId: 'resident', templateVariables: { centre: 'Rabat centre' } });
    const custom = await lastMessage(t, 'mailonly@example.org');
    expect(custom.subject).toBe('Code for mailonly');
    expect(custom.body).toMatch(/^Hello mailonly from Rabat centre: \d{6}$/);
  });

  it('keeps login OTPs apart from the OTP manager: an OTP from /otp/generate logs nobody in', async () => {
    const generated = await t.request('POST', '/v1/otpmanager/otp/generate', { body: envelopeOf({ key: 'officer7' }), headers: admin });
    const login = await otpLogin({ userId: 'officer7', otp: generated.json.response.otp, appId: 'registrationclient' });
    expect(login.json.errors[0].errorCode).toBe('AUTH_ERR_INVALIDOTP');
  });

  it('answers an expired OTP with AUTH_ERR_EXPIREDOTP', async () => {
    await sendOtp({ userId: 'mailonly', otpChannel: ['email'], useridtype: 'USERID', appId: 'resident' });
    const otp = otpIn((await lastMessage(t, 'mailonly@example.org')).body);
    t.clock.advance(181_000);
    expect((await otpLogin({ userId: 'mailonly', otp, appId: 'resident' })).json.errors[0].errorCode).toBe('AUTH_ERR_EXPIREDOTP');
  });
});

describe('OTP login errors', () => {
  it('gives every documented sendotp code and changes nothing', async () => {
    const base = { userId: 'officer7', otpChannel: ['email'], useridtype: 'USERID', appId: 'registrationclient' };
    await expectRejected(t, () => sendOtp({ ...base, otpChannel: ['fax'] }), 'KER-AUTH-CHANNEL_INVALID');
    await expectRejected(t, () => sendOtp({ ...base, otpChannel: [] }), 'KER-AUTH-CHANNEL_INVALID');
    await expectRejected(t, () => sendOtp({ ...base, otpChannel: 'email' }), 'KER-AUTH-CHANNEL_INVALID');
    await expectRejected(
      t,
      () => sendOtp({ ...base, appId: 'preregistration', userId: 'a@example.org', otpChannel: ['email', 'phone'] }),
      'AUTH_ERR_MULTIPLE_CHANNELS',
    );
    await expectRejected(t, () => sendOtp({ ...base, userId: 'nobody' }), 'AUTH_ERR_USER_NOT_FOUND');
    await expectRejected(t, () => sendOtp({ ...base, appId: 'admin' }), 'AUTH_ERR_USER_NOT_FOUND');
    await expectRejected(t, () => sendOtp({ ...base, useridtype: 'UIN', userId: '2345678901' }), 'AUTH_ERR_USER_NOT_FOUND');
    await expectRejected(t, () => sendOtp({ ...base, userId: undefined }), 'AUTH_ERR_USER_NOT_FOUND');
    await expectRejected(t, () => sendOtp({ ...base, userId: 'mailonly', appId: 'resident', otpChannel: ['phone'] }), 'AUTH_ERR_CHANNELPATH_NOT_FOUND');
    await expectRejected(
      t,
      () => sendOtp({ ...base, appId: 'preregistration', userId: 'not-an-email', otpChannel: ['email'] }),
      'AUTH_ERR_CHANNELPATH_NOT_FOUND',
    );
    await expectRejected(t, () => sendOtp({ ...base, appId: 'nope' }), 'KER-ATH-026');
  });

  it('gives every documented useridOTP code and changes nothing for malformed input', async () => {
    await expectRejected(t, () => otpLogin({ userId: 'officer7', appId: 'registrationclient' }), 'AUTH_ERR_INVALIDOTP');
    await expectRejected(t, () => otpLogin({ otp: '123456', appId: 'registrationclient' }), 'KER-ATH-003');
    await expectRejected(t, () => otpLogin({ userId: 'officer7', otp: '123456', appId: 'nope' }), 'KER-ATH-026');
    const wrong = await otpLogin({ userId: 'officer7', otp: '000000', appId: 'registrationclient' });
    expect(wrong.json.errors[0].errorCode).toBe('AUTH_ERR_INVALIDOTP');
    expect(wrong.headers.get('set-cookie')).toBeNull();
  });

  it('rate-limits OTP sending per user', async () => {
    const request = { userId: 'limited@example.org', otpChannel: ['email'], useridtype: 'USERID', appId: 'preregistration' };
    for (let i = 0; i < 5; i++) expect((await sendOtp(request)).json.response.status).toBe('success');
    const refused = await sendOtp(request);
    expect(refused.json.errors[0].errorCode).toBe('AUTH_ERR_OTP_BLOCKED');
    t.clock.advance(15 * 60_000 + 1000);
    expect((await sendOtp(request)).json.response.status).toBe('success');
  });

  it('works through GraphQL with the same codes', async () => {
    const send = await t.graphql(
      'mutation { sendOtp(input: { userId: "officer7", otpChannel: ["fax"], useridtype: "USERID", appId: "registrationclient" }) { otpSent { status } userErrors { field code message } } }',
    );
    expect(refusalOf(send)!.code).toBe('KER-AUTH-CHANNEL_INVALID');
    await t.graphql(
      'mutation { sendOtp(input: { userId: "mailonly", otpChannel: ["email"], useridtype: "USERID", appId: "resident" }) { otpSent { status } userErrors { field code message } } }',
    );
    const otp = otpIn((await lastMessage(t, 'mailonly@example.org')).body);
    const login = await t.graphql(
      'mutation($otp: String!) { loginWithOtp(input: { userId: "mailonly", otp: $otp, appId: "resident" }) { otpLogin { token userId } userErrors { field code message } } }',
      { otp },
    );
    expect(login.data.loginWithOtp.otpLogin.userId).toBe('mailonly');
    const identity = await t.graphql('{ validateToken { userId roles } }', {}, bearer(login.data.loginWithOtp.otpLogin.token));
    expect(identity.data.validateToken).toEqual({ userId: 'mailonly', roles: ['RESIDENT'] });
  });
});
