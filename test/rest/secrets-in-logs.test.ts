// Nothing secret or personal in the logs or the metrics: a whole run's log lines (at info, captured
// in-process from the platform's own logger) and the /metrics text, while users sign in with
// passwords (and one fails), clients with secrets, an OTP is generated and validated, tokens are used
// as cookie and bearer, an identity with a UIN and a name is created and read, and a packet goes
// through the pipeline; then none of the passwords, secrets, OTPs, tokens, UINs or names is found.
// The request lines still say who did what: the caller, the GraphQL operation, the refusal's code.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../lib/log.js';
import { idrepoCalls, newRid } from '../support/identities.js';
import { ADMIN_PASSWORD, bearer, cookieHeader, envelopeOf, startTestPlatform, type TestPlatform } from '../support/platform.js';
import { registrationClient } from '../support/regproc.js';
import { TEST_USER_PASSWORD, userLogin } from '../support/users.js';

let captured = '';
let t: TestPlatform;
const { send, ok, newUin, create } = idrepoCalls(() => t);

/** Everything that must never be written anywhere an operator reads, with what it is. */
const secrets = new Map<string, string>();
const keep = (what: string, value: string) => void secrets.set(value, what);

beforeAll(async () => {
  const destination = { write: (line: string) => void (captured += line) };
  // An OTP of 10 digits: a 6-digit one could turn up by chance in a timing or an id of a thousand log lines.
  t = await startTestPlatform({ PLATFORM_SAMPLE_DATA: 'true', PLATFORM_OTP_LENGTH: '10' }, undefined, {
    logger: createLogger({ level: 'info', destination, format: 'json' }),
  });
});
afterAll(async () => {
  await t?.close();
});

const lines = () =>
  captured
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);

describe('a run of the platform', () => {
  it('logs and measures no password, secret, OTP, token, UIN or name, and its request lines say who did what', async () => {
    keep('the admin password', ADMIN_PASSWORD);
    keep('the test users’ password', TEST_USER_PASSWORD);
    // Passwords: the admin's over REST, a user's over GraphQL, and a wrong one.
    const adminToken = await t.adminToken();
    keep('the admin token', adminToken);
    const wrongPassword = 'Wrong-password-never-logged-42';
    keep('a wrong password', wrongPassword);
    const refusedLogin = await t.request('POST', '/v1/authmanager/authenticate/internal/useridPwd', {
      body: envelopeOf({ userName: 'admin', password: wrongPassword, appId: 'admin' }),
    });
    expect(refusedLogin.json.errors[0].errorCode).toEqual(expect.any(String));
    const user = await userLogin(t, 'secrets-user', ['GLOBAL_ADMIN'], 'admin');
    keep('a user token', user.token);

    // Client secrets, and their tokens used as cookie and as bearer.
    const processor = await t.clientToken(['REGISTRATION_PROCESSOR'], 'registrationprocessor');
    const ida = await t.clientToken(['ID_AUTHENTICATION'], 'ida');
    for (const client of [processor, ida]) {
      keep(`${client.clientId}'s secret`, client.secretKey);
      keep(`${client.clientId}'s token`, client.token);
    }

    // An OTP generated and validated (it travels in the query string), then refused once consumed.
    const admin = cookieHeader(adminToken);
    const generated = await t.request('POST', '/v1/otpmanager/otp/generate', { body: envelopeOf({ key: 'secrets-otp-key' }), headers: admin });
    const otp = generated.json.response.otp as string;
    expect(otp).toMatch(/^\d{10}$/);
    keep('an OTP', otp);
    const validate = () => t.request('GET', `/v1/otpmanager/otp/validate?key=secrets-otp-key&otp=${otp}`, { headers: user.bearer });
    expect((await validate()).json.response.message).toBe('VALIDATION_SUCCESSFUL');
    expect((await validate()).json.errors[0].errorCode).toBe('KER-OTV-005');

    // An identity with a UIN and a name, created and read (the UIN is in the read's path).
    const uin = newUin();
    keep('a UIN', uin);
    const name = 'Quillon Brightmarsh-Secret';
    keep("a resident's name", name);
    await ok(create(cookieHeader(processor.token), uin, newRid(), { fullName: [{ language: 'eng', value: name }] }));
    const read = await ok(send(bearer(ida.token), 'GET', `/uin/${uin}`));
    expect(read.identity.fullName).toEqual([{ language: 'eng', value: name }]);

    // A packet through the pipeline: its resident's name, e-mail and phone, and the UIN it is given.
    const client = await registrationClient(t, admin);
    const built = client.build('secrets-packet');
    for (const { value } of built.resident.identity.fullName as { value: string }[]) keep("a packet resident's name", value);
    keep("a packet resident's e-mail", built.resident.identity.email as string);
    keep("a packet resident's phone", built.resident.identity.phone as string);
    await client.submit(built);
    expect(await client.settle(built.rid)).toBe('PROCESSED');
    const identity = await t.platform.deps.services.identities.byRegistration(built.rid);
    keep("the packet's UIN", await t.platform.deps.services.identities.uinOfRow(identity!));

    // GraphQL: a named operation of the admin's, one refused without a token, one refused a role.
    expect((await t.graphql('query SecretsPool { uinPool { unused } }', {}, bearer(adminToken))).errors).toBeUndefined();
    const anonymous = await t.graphql('query SecretsRefused { uinPool { unused } }');
    const refusedCode = anonymous.errors[0].extensions.code as string;
    const forbidden = await t.graphql('query SecretsForbidden { uinPool { unused } }', {}, cookieHeader(ida.token));
    expect(forbidden.errors[0].extensions.code).toBe('KER-ATH-403');

    const metrics = await (await fetch(`${t.baseUrl}/metrics`)).text();
    const everything = captured + metrics;
    expect(lines().length).toBeGreaterThan(50);
    const found = [...secrets].filter(([value]) => everything.includes(value)).map(([, what]) => what);
    expect(found).toEqual([]);
    // A token's signature alone is as good as a leak of it.
    for (const token of [adminToken, user.token, processor.token, ida.token]) expect(everything).not.toContain(token.split('.')[2]);

    // Who did what: the caller and the operation of each /graphql line, the code of each refusal.
    const requests = lines().filter((line) => line.msg === 'request');
    const graphql = (operation: string) => requests.find((line) => line.route === '/graphql' && line.operation === operation);
    expect(graphql('SecretsPool')).toMatchObject({ caller: 'admin', callerType: 'user', status: 200 });
    expect(graphql('SecretsPool')).not.toHaveProperty('errorCode');
    expect(graphql('SecretsRefused')).toMatchObject({ errorCode: refusedCode });
    expect(graphql('SecretsRefused')).not.toHaveProperty('caller');
    expect(graphql('SecretsForbidden')).toMatchObject({ caller: ida.clientId, callerType: 'client', errorCode: 'KER-ATH-403' });
    const otpLines = requests.filter((line) => line.route === '/v1/otpmanager/otp/validate');
    expect(otpLines.map((line) => line.errorCode)).toEqual([undefined, 'KER-OTV-005']);
    expect(otpLines[0]).toMatchObject({ caller: 'secrets-user' });
    expect(requests.find((line) => line.route === '/idrepository/v1/identity/uin/:uin')).toMatchObject({ caller: ida.clientId });
    // Each stage of the packet: one line with its RID, stage, outcome and time.
    const stages = lines().filter((line) => line.msg === 'registration stage ran' && line.rid === built.rid);
    expect(stages.map((line) => `${String(line.stage)}:${String(line.outcome)}`)).toEqual([
      'UPLOAD_PACKET:success',
      'VALIDATE_PACKET:success',
      'BIOGRAPHIC_VERIFICATION:success',
      'UIN_GENERATOR:processed',
    ]);
    for (const line of stages) expect(line.ms).toEqual(expect.any(Number));
  });
});
