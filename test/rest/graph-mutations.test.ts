import { describe, expect, it } from 'vitest';
import { bearer, envelopeOf, type TestPlatform, useTestPlatform } from '../support/platform.js';
import { userLogin } from '../support/users.js';

let t: TestPlatform;
let adminCookie: Record<string, string>;
useTestPlatform({}, (platform, cookie) => {
  t = platform;
  adminCookie = cookie;
});
const admin = async () => bearer(await t.adminToken());
const USER_ERRORS = 'userErrors { field code message }';
const createMisp = `mutation($input: CreateMispInput!) { createMisp(input: $input) { misp { id organizationName } ${USER_ERRORS} } }`;

describe('mutations: one input, a payload, every refusal in userErrors', () => {
  it('lists every invalid field of a gathered input, with the codes and messages of the REST door, and writes nothing', async () => {
    const bad = { organizationName: 'x'.repeat(300), emailId: 'not-mail', address: '' };
    const headers = await admin();
    const before = await t.snapshot();
    const answer = await t.graphql(createMisp, { input: bad }, headers);
    expect(answer.errors).toBeUndefined();
    const { misp, userErrors } = answer.data.createMisp;
    expect(misp).toBeNull();
    expect(userErrors.map((error: any) => error.field)).toEqual([
      ['input', 'organizationName'],
      ['input', 'emailId'],
      ['input', 'address'],
    ]);
    for (const error of userErrors) expect(error.code).toMatch(/^PMS_/);
    expect(await t.snapshot()).toEqual(before);
    // The REST path answers the first of them, byte for byte as it did before payloads.
    const rest = await t.request('POST', '/partnermanagement/v1/misps', { body: envelopeOf(bad), headers: adminCookie });
    expect(rest.json.errors).toEqual([{ errorCode: userErrors[0].code, message: userErrors[0].message }]);
    expect(await t.snapshot()).toEqual(before);
  });

  it('keeps an input the mutation already had, and paths its fields from it', async () => {
    const answer = await t.graphql(
      `mutation($input: UserInput!) { createUser(input: $input) { user { userId } ${USER_ERRORS} } }`,
      { input: { userId: 'gm\u0001one', mobile: '9'.repeat(65) } },
      await admin(),
    );
    expect(answer.data.createUser.user).toBeNull();
    expect(answer.data.createUser.userErrors).toEqual([
      { field: ['input', 'userId'], code: 'KER-ATH-400', message: expect.stringContaining('input.userId') },
      { field: ['input', 'mobile'], code: 'KER-ATH-400', message: expect.stringContaining('input.mobile') },
    ]);
  });

  it('answers a rule the service enforces as a user error without a field, and a success with no user errors', async () => {
    const input = { organizationName: 'Payload Telco', emailId: 'ops@example.org', address: 'Rabat' };
    const headers = await admin();
    const created = await t.graphql(createMisp, { input }, headers);
    expect(created.data.createMisp).toEqual({ misp: { id: expect.any(String), organizationName: 'Payload Telco' }, userErrors: [] });
    const before = await t.snapshot();
    const again = await t.graphql(createMisp, { input }, headers);
    expect(again.errors).toBeUndefined();
    expect(again.data.createMisp.misp).toBeNull();
    expect(again.data.createMisp.userErrors).toEqual([{ field: null, code: 'PMS_MSP_003', message: expect.any(String) }]);
    expect(await t.snapshot()).toEqual(before);
  });

  it('refuses a caller without the role as a top-level error, before reading the input', async () => {
    const officer = await userLogin(t, 'gm-officer', ['REGISTRATION_OFFICER'], 'admin');
    const before = await t.snapshot();
    const answer = await t.graphql(createMisp, { input: { organizationName: '', emailId: 'bad', address: '' } }, officer.bearer);
    expect(answer.errors.map((error: any) => error.extensions.code)).toEqual(['KER-ATH-403']);
    expect(answer.data).toBeNull();
    expect(await t.snapshot()).toEqual(before);
  });

  it('keeps a mutation without arguments without an input', async () => {
    const login = await userLogin(t, 'gm-leaver', ['REGISTRATION_OFFICER'], 'admin');
    const answer = await t.graphql(`mutation { invalidateToken { tokenInvalidation { message } ${USER_ERRORS} } }`, {}, login.bearer);
    expect(answer.data.invalidateToken).toEqual({ tokenInvalidation: { message: expect.any(String) }, userErrors: [] });
  });
});
