import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lastMessage, otpIn } from '../support/outbox.js';
import { startTestPlatform, type TestPlatform } from '../support/platform.js';
import { applicant, preregCall, preregEnvelope, PREREG } from '../support/prereg.js';

let t: TestPlatform;
let folder: string;
let configFile: string;
beforeAll(async () => {
  folder = mkdtempSync(path.join(tmpdir(), 'prereg-config-'));
  configFile = path.join(folder, 'prereg.properties');
  writeFileSync(
    configFile,
    '# a test file\nplatform.kernel.otp.default-length=6\npreregistration.timespan.cancel = 24\npreregistration.booking.offset: 2\nlong.value=a,\\\n  b\n',
  );
  t = await startTestPlatform({ PREREG_CONFIG_FILE: configFile });
});
afterAll(async () => {
  await t?.close();
  rmSync(folder, { recursive: true, force: true });
});

const send = (userId: unknown, extra: Record<string, unknown> = {}) =>
  t.request('POST', `${PREREG}/login/sendOtp`, { body: { ...preregEnvelope(t, 'login.sendotp', { userId }), ...extra } });
const validate = (request: Record<string, unknown>) => preregCall(t, 'POST', '/login/validateOtp', { id: 'login.useridotp', request });
const codeOf = (answer: { json: { errors?: { errorCode: string }[] | null } }) => answer.json.errors?.[0]?.errorCode;

describe('pre-registration login', () => {
  it('sends the OTP by e-mail or SMS as the user id reads, sets the token cookie on validateOtp, and ends the session on invalidateToken', async () => {
    const sent = await send('amina@example.org');
    expect(sent.json).toMatchObject({ id: 'platform.pre-registration.login.sendotp', version: '1.0', response: { status: 'success' }, errors: null });
    expect((await lastMessage(t, 'amina@example.org')).channel).toBe('EMAIL');
    await send('9123456780');
    expect((await lastMessage(t, '9123456780')).channel).toBe('SMS');

    const otp = otpIn((await lastMessage(t, 'amina@example.org')).body);
    const login = await validate({ userId: 'amina@example.org', otp });
    expect(login.json.response).toEqual({ message: 'VALIDATION_SUCCESSFUL', status: 'success' });
    expect(login.headers.get('set-cookie')).toMatch(/^Authorization=Platform-Token[^;]+;.*HttpOnly/);

    const cookie = await applicant(t, 'amina@example.org');
    const logout = await preregCall(t, 'POST', '/login/invalidateToken', { headers: cookie });
    expect(logout.json.response.status).toBe('success');
    expect(codeOf(await preregCall(t, 'POST', '/login/invalidateToken', { headers: cookie }))).toMatch(/^KER-ATH-00[78]$/);
    expect(codeOf(await preregCall(t, 'POST', '/login/invalidateToken'))).toBe('KER-ATH-006');
  });

  it('answers every documented sendOtp and validateOtp code, changing nothing', async () => {
    const before = await t.snapshot();
    expect(codeOf(await send('not a contact'))).toBe('PRG_PAM_LGN_008');
    expect(codeOf(await send(''))).toBe('PRG_PAM_LGN_008');
    expect(codeOf(await send('a@example.org', { id: 'platform.pre-registration.login.other' }))).toBe('PRG_PAM_CORE_001');
    expect(codeOf(await send('a@example.org', { id: undefined }))).toBe('PRG_PAM_CORE_001');
    expect(codeOf(await send('a@example.org', { version: '2.0' }))).toBe('PRG_PAM_CORE_002');
    expect(codeOf(await send('a@example.org', { requesttime: 'yesterday' }))).toBe('PRG_PAM_CORE_003');
    expect(codeOf(await send('a@example.org', { requesttime: undefined }))).toBe('PRG_PAM_CORE_003');
    const yesterday = new Date(t.clock.now().getTime() - 86_400_000).toISOString();
    expect(codeOf(await send('a@example.org', { requesttime: yesterday }))).toBe('PRG_CORE_REQ_013');

    expect(codeOf(await validate({ userId: '', otp: '123456' }))).toBe('KER-ATH-003');
    expect(codeOf(await validate({ userId: 'b@example.org', otp: '' }))).toBe('KER-OTV-003');
    expect(codeOf(await validate({ userId: 'b@example.org', otp: '12ab56' }))).toBe('KER-OTV-004');
    expect(codeOf(await validate({ userId: 'never-sent@example.org', otp: '123456' }))).toBe('KER-OTV-005');
    expect(await t.snapshot()).toEqual(before);

    await send('c@example.org');
    const right = otpIn((await lastMessage(t, 'c@example.org')).body);
    const wrong = right === '000000' ? '111111' : '000000';
    expect(codeOf(await validate({ userId: 'c@example.org', otp: wrong }))).toBe('PRG_PAM_LGN_013');
  });

  it('answers PRG_AUTH_001 when the OTP cannot be sent', async () => {
    // A second OTP request inside the throttle's window for one address is refused by auth: it is not sent.
    const userId = 'often@example.org';
    let code: string | undefined;
    for (let attempt = 0; attempt < 12 && code === undefined; attempt++) code = codeOf(await send(userId));
    expect(code).toBe('PRG_AUTH_001');
  });
});

describe('pre-registration configuration', () => {
  it('serves every key of the file, reads it again on refreshconfig, and answers PRG_AUTH_012 once the file is gone', async () => {
    const config = await t.request('GET', `${PREREG}/login/config`);
    expect(config.json.response).toEqual({
      'platform.kernel.otp.default-length': '6',
      'preregistration.timespan.cancel': '24',
      'preregistration.booking.offset': '2',
      'long.value': 'a,b',
    });
    writeFileSync(configFile, 'preregistration.timespan.cancel=48\n');
    expect((await t.request('GET', `${PREREG}/login/refreshconfig`)).json.response).toBe('success');
    expect((await t.request('GET', `${PREREG}/login/config`)).json.response).toEqual({ 'preregistration.timespan.cancel': '48' });
    expect((await t.graphql('{ preRegistrationConfiguration { key value } }')).data.preRegistrationConfiguration).toEqual([
      { key: 'preregistration.timespan.cancel', value: '48' },
    ]);

    writeFileSync(configFile, 'preregistration.timespan.cancel=soon\n');
    expect(codeOf(await t.request('GET', `${PREREG}/login/refreshconfig`))).toBe('PRG_AUTH_012');
    rmSync(configFile);
    expect(codeOf(await t.request('GET', `${PREREG}/login/refreshconfig`))).toBe('PRG_AUTH_012');
    // What was read before stays in force.
    expect((await t.request('GET', `${PREREG}/login/config`)).json.response).toEqual({ 'preregistration.timespan.cancel': '48' });
  });

  it('answers PRG_AUTH_012 on config when the platform started without the file', async () => {
    const other = await startTestPlatform({ PREREG_CONFIG_FILE: path.join(folder, 'missing.properties') });
    try {
      expect(codeOf(await other.request('GET', `${PREREG}/login/config`))).toBe('PRG_AUTH_012');
    } finally {
      await other.close();
    }
  });
});
