import { lastMessage, otpIn } from './outbox.js';
import { afterAll, beforeAll } from 'vitest';
import { cookieHeader, startTestPlatform, tokenOfCookie, type TestPlatform } from './platform.js';

export const PREREG = '/preregistration/v1';

/** A pre-registration request envelope: the call's own id, version 1.0 and a requesttime of the platform's clock. */
export function preregEnvelope(t: TestPlatform, id: string, request: unknown, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { id: `platform.pre-registration.${id}`, version: '1.0', requesttime: t.clock.now().toISOString(), request, ...extra };
}

/** A pre-registration call: POST/PUT with an envelope of `id`, or a GET/DELETE. */
export function preregCall(t: TestPlatform, method: string, path: string, options: { id?: string; request?: unknown; headers?: Record<string, string> } = {}) {
  const body = options.id === undefined ? undefined : preregEnvelope(t, options.id, options.request ?? {});
  return t.request(method, PREREG + path, { ...(body ? { body } : {}), headers: options.headers ?? {} });
}

/** Signs an applicant in by their e-mail address or phone, the OTP read from the outbox: their cookie header. */
export async function applicant(t: TestPlatform, userId: string): Promise<Record<string, string>> {
  const sent = await preregCall(t, 'POST', '/login/sendOtp', { id: 'login.sendotp', request: { userId } });
  if (sent.json.errors) throw new Error(`sendOtp failed: ${JSON.stringify(sent.json.errors)}`);
  const otp = otpIn((await lastMessage(t, userId)).body);
  const login = await preregCall(t, 'POST', '/login/validateOtp', { id: 'login.useridotp', request: { userId, otp } });
  if (login.json.errors) throw new Error(`validateOtp failed: ${JSON.stringify(login.json.errors)}`);
  return cookieHeader(tokenOfCookie(login.headers.get('set-cookie') ?? ''));
}

/** An identity as the pre-registration portal sends it, valid under the sample country's ID schema and the shipped configuration. */
export function applicantIdentity(over: Record<string, unknown> = {}): Record<string, unknown> {
  const text = (value: string) => [{ language: 'eng', value }];
  return {
    IDSchemaVersion: 1,
    fullName: text('Salma Quietbrook'),
    dateOfBirth: '1991/04/23',
    gender: text('Female'),
    residenceStatus: text('Non-Foreigner'),
    addressLine1: text('12 Cedar Lane'),
    region: text('Rabat Sale Kenitra'),
    province: text('Kenitra'),
    city: text('Kenitra'),
    zone: text('Ben Mansour'),
    postalCode: '14000',
    referenceIdentityNumber: '2345678901',
    phone: '9123456789',
    email: 'salma@example.org',
    ...over,
  };
}

/** Creates an application as the applicant: the REST answer. */
export const createApplication = (t: TestPlatform, cookie: Record<string, string>, identity = applicantIdentity(), langCode = 'eng') =>
  preregCall(t, 'POST', '/applications', { id: 'demographic.create', request: { langCode, demographicDetails: { identity } }, headers: cookie });

/** A file's platform with the sample country, and two applicants signed in: Amina by e-mail, Bilal by phone. */
export interface PreregSuite {
  t: TestPlatform;
  amina: Record<string, string>;
  bilal: Record<string, string>;
}

/** Starts a PreregSuite before the file's tests (handing it to `ready`) and closes it after them. */
export function preregPlatform(ready: (suite: PreregSuite) => void, env: Record<string, string> = {}): void {
  let t: TestPlatform | undefined;
  beforeAll(async () => {
    t = await startTestPlatform({ PLATFORM_SAMPLE_DATA: 'true', ...env });
    ready({ t, amina: await applicant(t, 'amina@example.org'), bilal: await applicant(t, '9123400001') });
  });
  afterAll(async () => {
    await t?.close();
  });
}
