// Login throttling under concurrency: an attempt is reserved atomically before
// any credential is checked, so parallel requests cannot all slip under a limit.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, envelopeOf, startTestPlatform, type TestPlatform } from '../support/platform.js';

const THROTTLED = /too many/;

describe('password logins racing the per-account limit (10 failures per 15 minutes)', () => {
  let t: TestPlatform;
  beforeAll(async () => {
    t = await startTestPlatform({ PLATFORM_THROTTLE_ACCOUNT: '10', PLATFORM_THROTTLE_ADDRESS: '0' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('lets at most 10 of 60 parallel logins reach the password check', async () => {
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        t.request('POST', '/v1/authmanager/authenticate/internal/useridPwd', {
          body: envelopeOf({ userName: 'admin', password: `wrong-${i}`, appId: 'admin' }),
        }),
      ),
    );
    const codes = new Set(answers.map((a) => a.json.errors[0].errorCode));
    expect(codes).toEqual(new Set(['KER-ATH-023']));
    const checked = answers.filter((a) => !THROTTLED.test(a.json.errors[0].message));
    expect(checked.length).toBeGreaterThan(0);
    expect(checked.length).toBeLessThanOrEqual(10);
    // and the right password is refused too until the window has passed
    const right = await t.request('POST', '/v1/authmanager/authenticate/internal/useridPwd', {
      body: envelopeOf({ userName: 'admin', password: ADMIN_PASSWORD, appId: 'admin' }),
    });
    expect(right.json.errors[0].message).toMatch(THROTTLED);
    t.clock.advance(15 * 60_000 + 1000);
    const later = await t.request('POST', '/v1/authmanager/authenticate/internal/useridPwd', {
      body: envelopeOf({ userName: 'admin', password: ADMIN_PASSWORD, appId: 'admin' }),
    });
    expect(later.json.response.userId).toBe('admin');
  });
});

describe('client logins racing the per-address limit (120 a minute)', () => {
  let t: TestPlatform;
  beforeAll(async () => {
    t = await startTestPlatform({ PLATFORM_THROTTLE_ACCOUNT: '0', PLATFORM_THROTTLE_ADDRESS: '120' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('evaluates at most 120 of 200 parallel logins from one address', async () => {
    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        t.request('POST', '/v1/authmanager/authenticate/clientidsecretkey', {
          body: envelopeOf({ clientId: `client-${i}`, secretKey: 'not-the-secret', appId: 'ida' }),
        }),
      ),
    );
    const evaluated = answers.filter((a) => !THROTTLED.test(a.json.errors[0].message));
    expect(evaluated.length).toBeGreaterThan(0);
    expect(evaluated.length).toBeLessThanOrEqual(120);
    expect(answers.every((a) => a.json.errors[0].errorCode === '500')).toBe(true);
  });
});

describe('sendotp and the per-address limit', () => {
  let t: TestPlatform;
  beforeAll(async () => {
    t = await startTestPlatform({ PLATFORM_THROTTLE_ACCOUNT: '0', PLATFORM_THROTTLE_ADDRESS: '3' });
  });
  afterAll(async () => {
    await t?.close();
  });

  const sendOtp = (userId: string) =>
    t.request('POST', '/v1/authmanager/authenticate/sendotp', {
      body: envelopeOf({ userId, otpChannel: ['email'], useridtype: 'USERID', appId: 'admin', context: 'auth-otp' }),
    });

  it('is counted before the user is looked up: past the limit, known and unknown users get the same answer', async () => {
    for (const name of ['nobody-1', 'nobody-2', 'nobody-3']) expect((await sendOtp(name)).json.errors[0].errorCode).toBe('AUTH_ERR_USER_NOT_FOUND');
    const unknown = await sendOtp('nobody-4');
    const known = await sendOtp('admin');
    expect(unknown.json.errors).toEqual(known.json.errors);
    expect(unknown.json.errors[0].errorCode).toBe('AUTH_ERR_OTP_BLOCKED');
  });
});
