import { describe, expect, it } from 'vitest';
import { expectRejected } from '../support/assertions.js';
import { bearer, cookieHeader, envelopeOf, startTestPlatform, type TestPlatform, useTestPlatform } from '../support/platform.js';
import { refusalOf } from '../support/refusals.js';

const GENERATE = '/v1/otpmanager/otp/generate';
const validatePath = (key: string, otp: string) => `/v1/otpmanager/otp/validate?key=${encodeURIComponent(key)}&otp=${encodeURIComponent(otp)}`;

let t: TestPlatform;
let auth: Record<string, string>;
useTestPlatform({}, (platform, adminCookie) => {
  t = platform;
  auth = adminCookie;
});

const generate = (key: unknown) => t.request('POST', GENERATE, { body: envelopeOf({ key }, { id: 'platform.otp.generateOTP' }), headers: auth });
const validate = (key: string, otp: string, method = 'GET') => t.request(method, validatePath(key, otp), { headers: auth });

describe('OTP manager (REST)', () => {
  it('generates a numeric OTP of the configured length, validates it once, and deletes it', async () => {
    const { json } = await generate('user-one');
    expect(json.id).toBe('platform.otp.generateOTP');
    expect(json.response.status).toBe('GENERATION_SUCCESSFUL');
    expect(json.response.otp).toMatch(/^\d{6}$/);
    const ok = await validate('user-one', json.response.otp);
    expect(ok.json.response).toEqual({ status: 'success', message: 'VALIDATION_SUCCESSFUL' });
    // consumed: the key has no OTP any more
    expect((await validate('user-one', json.response.otp)).json.errors[0].errorCode).toBe('KER-OTV-005');
  });

  it('stores only keyed hashes: neither the key nor the OTP is in the database', async () => {
    const { json } = await generate('visible-key-123');
    const rows = await t.platform.deps.prisma.otpEntry.findMany();
    const dump = JSON.stringify(rows);
    expect(dump).not.toContain('visible-key-123');
    expect(dump).not.toContain(json.response.otp);
  });

  it('answers a wrong OTP with VALIDATION_UNSUCCESSFUL and an expired one with OTP_EXPIRED; POST is accepted too', async () => {
    const { json } = await generate('user-two');
    const wrong = json.response.otp === '000000' ? '111111' : '000000';
    expect((await validate('user-two', wrong)).json.response).toEqual({ status: 'failure', message: 'VALIDATION_UNSUCCESSFUL' });
    t.clock.advance(181_000);
    expect((await validate('user-two', json.response.otp, 'POST')).json.response).toEqual({ status: 'failure', message: 'OTP_EXPIRED' });
    const fresh = await generate('user-two');
    expect((await validate('user-two', fresh.json.response.otp, 'POST')).json.response.message).toBe('VALIDATION_SUCCESSFUL');
  });

  it('freezes a key after threshold+1 wrong entries, refuses generation while frozen, and thaws after the freeze time', async () => {
    const { json } = await generate('user-frozen');
    const wrong = json.response.otp === '000000' ? '111111' : '000000';
    for (let i = 0; i < 10; i++) expect((await validate('user-frozen', wrong)).json.response.message).toBe('VALIDATION_UNSUCCESSFUL');
    expect((await validate('user-frozen', wrong)).json.response).toEqual({ status: 'failure', message: 'USER_BLOCKED' });
    // even the right OTP no longer works, and generation is refused without an OTP
    expect((await validate('user-frozen', json.response.otp)).json.response.message).toBe('USER_BLOCKED');
    expect((await generate('user-frozen')).json.response).toEqual({ otp: 'null', status: 'USER_BLOCKED' });
    t.clock.advance(1799_000);
    expect((await generate('user-frozen')).json.response.status).toBe('USER_BLOCKED');
    t.clock.advance(2_000);
    const thawed = await generate('user-frozen');
    expect(thawed.json.response.status).toBe('GENERATION_SUCCESSFUL');
    expect((await validate('user-frozen', thawed.json.response.otp)).json.response.message).toBe('VALIDATION_SUCCESSFUL');
  });

  it('consumes an OTP atomically: of parallel validations exactly one succeeds', async () => {
    const { json } = await generate('user-race');
    const results = await Promise.all(Array.from({ length: 8 }, () => validate('user-race', json.response.otp)));
    const messages = results.map((r) => r.json.response?.message ?? r.json.errors[0].errorCode);
    expect(messages.filter((m) => m === 'VALIDATION_SUCCESSFUL')).toHaveLength(1);
  });

  it('gives every documented error code for bad input and changes nothing', async () => {
    await expectRejected(t, () => generate('ab'), 'KER-OTG-001');
    await expectRejected(t, () => generate('k'.repeat(65)), 'KER-OTG-001');
    await expectRejected(t, () => generate(undefined), 'KER-OTG-001');
    await expectRejected(t, () => generate(12345), 'KER-OTG-001');
    await expectRejected(t, () => t.request('GET', '/v1/otpmanager/otp/validate?otp=123456', { headers: auth }), 'KER-OTV-001');
    await expectRejected(t, () => validate('', '123456'), 'KER-OTV-001');
    await expectRejected(t, () => validate('ab', '123456'), 'KER-OTV-002');
    await expectRejected(t, () => t.request('GET', '/v1/otpmanager/otp/validate?key=abc&key=def&otp=1', { headers: auth }), 'KER-OTV-002');
    await expectRejected(t, () => t.request('GET', '/v1/otpmanager/otp/validate?key=abcdef', { headers: auth }), 'KER-OTV-003');
    await expectRejected(t, () => validate('abcdef', ''), 'KER-OTV-003');
    await expectRejected(t, () => validate('abcdef', '12a456'), 'KER-OTV-004');
    await expectRejected(t, () => validate('never-generated', '123456'), 'KER-OTV-005');
  });

  it('requires a token with an OTP role by default (CONTRACT: spec-open endpoints are guarded)', async () => {
    await expectRejected(t, () => t.request('POST', GENERATE, { body: envelopeOf({ key: 'abcdef' }) }), 'KER-ATH-006');
    await expectRejected(t, () => t.request('GET', validatePath('abcdef', '123456')), 'KER-ATH-006');
    await t.graphql(
      'mutation { createUser(input: {userId: "officer-otp", password: "officer-pass-1", roles: [REGISTRATION_OFFICER], appIds: ["registrationclient"]}) { user { userId } userErrors { field code message } } }',
      {},
      auth,
    );
    const officer = await t.graphql(
      'mutation { loginWithPassword(input: { userName: "officer-otp", password: "officer-pass-1", appId: "registrationclient" }) { passwordLogin { token } userErrors { field code message } } }',
    );
    await expectRejected(
      t,
      () => t.request('POST', GENERATE, { body: envelopeOf({ key: 'abcdef' }), headers: cookieHeader(officer.data.loginWithPassword.passwordLogin.token) }),
      'KER-ATH-403',
    );
  });

  it('works through GraphQL with the same answers and codes', async () => {
    const headers = bearer(await t.adminToken());
    const generated = await t.graphql(
      'mutation($key: String!) { generateOtp(input: { key: $key }) { otpGeneration { otp status } userErrors { field code message } } }',
      { key: 'graphql-key' },
      headers,
    );
    expect(generated.data.generateOtp.otpGeneration.status).toBe('GENERATION_SUCCESSFUL');
    const validated = await t.graphql(
      'mutation($key: String!, $otp: String!) { validateOtp(input: { key: $key, otp: $otp }) { otpValidation { status message } userErrors { field code message } } }',
      { key: 'graphql-key', otp: generated.data.generateOtp.otpGeneration.otp },
      headers,
    );
    expect(validated.data.validateOtp.otpValidation).toEqual({ status: 'success', message: 'VALIDATION_SUCCESSFUL' });
    const bad = await t.graphql(
      'mutation { validateOtp(input: { key: "graphql-key", otp: "x1" }) { otpValidation { status } userErrors { field code message } } }',
      {},
      headers,
    );
    expect(refusalOf(bad)!.code).toBe('KER-OTV-004');
    const short = await t.graphql('mutation { generateOtp(input: { key: "ab" }) { otpGeneration { status } userErrors { field code message } } }', {}, headers);
    expect(refusalOf(short)!.code).toBe('KER-OTG-001');
  });
});

describe('OTP manager with PLATFORM_SPEC_OPEN_ENDPOINTS=true', () => {
  it('answers without a token, exactly as the spec flags the endpoints', async () => {
    const open = await startTestPlatform({ PLATFORM_SPEC_OPEN_ENDPOINTS: 'true', PLATFORM_OTP_LENGTH: '8' });
    try {
      const { json } = await open.request('POST', GENERATE, { body: envelopeOf({ key: 'open-key' }) });
      expect(json.response.otp).toMatch(/^\d{8}$/);
      const ok = await open.request('GET', validatePath('open-key', json.response.otp));
      expect(ok.json.response.message).toBe('VALIDATION_SUCCESSFUL');
    } finally {
      await open.close();
    }
  });
});
