import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { bearer, cookieHeader, envelopeOf, tokenOfCookie, type TestPlatform } from './platform.js';
import { lastMessage, otpIn } from './outbox.js';
import type { Login } from './users.js';

export const SEND_OTP = '/v1/authmanager/authenticate/sendotp';
export const OTP_LOGIN = '/v1/authmanager/authenticate/useridOTP';

/** A fresh e-mail address for a test identity, so that its OTP is the newest message there. */
export const residentEmail = () => `resident-${randomUUID().slice(0, 8)}@example.org`;

/** sendotp for a resident by UIN or VID (`useridtype` UIN, realm `resident`). */
export const sendResidentOtp = (t: TestPlatform, number: string, request: Record<string, unknown> = {}) =>
  t.request('POST', SEND_OTP, {
    body: envelopeOf({ userId: number, otpChannel: ['email'], useridtype: 'UIN', appId: 'resident', context: 'auth-otp', ...request }),
  });

/** useridOTP for a resident. */
export const residentOtpLogin = (t: TestPlatform, number: string, otp: string, appId = 'resident') =>
  t.request('POST', OTP_LOGIN, { body: envelopeOf({ userId: number, otp, appId }) });

/**
 * A resident signed in as the resident portal signs them in: sendotp by UIN
 * or VID, the OTP read from the outbox at the identity's e-mail, useridOTP.
 */
export async function residentLogin(t: TestPlatform, number: string, email: string): Promise<Login> {
  const sent = await sendResidentOtp(t, number);
  expect(sent.json.errors, JSON.stringify(sent.json.errors)).toBeOneOf([null, []]);
  const message = await lastMessage(t, email);
  const { json, headers } = await residentOtpLogin(t, number, otpIn(message.body));
  expect(json.errors, JSON.stringify(json.errors)).toBeOneOf([null, []]);
  const token = tokenOfCookie(headers.get('set-cookie') ?? '');
  expect(token).not.toBe('');
  return { token, cookie: cookieHeader(token), bearer: bearer(token) };
}
