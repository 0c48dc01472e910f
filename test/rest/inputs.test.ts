// GraphQL and REST accept exactly the same inputs: each component's zod rules
// (subgraphs/<name>/inputs.ts) check every call of its root fields, and the
// REST routes validate with the same schemas. Each case sends one bad input both
// ways and expects the same code, with nothing changed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectRejected } from '../support/assertions.js';
import { cookieHeader, envelopeOf, startTestPlatform, type TestPlatform } from '../support/platform.js';
import { refusalOf } from '../support/refusals.js';

let t: TestPlatform;
let admin: Record<string, string>;
beforeAll(async () => {
  t = await startTestPlatform();
  admin = cookieHeader(await t.adminToken());
});
afterAll(async () => {
  await t?.close();
});

const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();

/** A GraphQL call shaped as a response envelope (errors only), so both faces are compared the same way. */
async function viaGraphql(query: string, variables: Record<string, unknown>, headers: Record<string, string> = admin) {
  const result = await t.graphql(query, variables, headers);
  return {
    status: 200,
    json: {
      response: null,
      responsetime: new Date().toISOString(),
      errors: [refusalOf(result)].flatMap((refusal) => (refusal ? [{ errorCode: refusal.code, message: refusal.message }] : [])),
    },
  };
}

interface Case {
  name: string;
  code: string;
  rest: () => Promise<{ status: number; json: unknown }>;
  graphql: () => Promise<{ status: number; json: unknown }>;
}

const cases: Case[] = [
  {
    name: 'license: a MISP id with a control character',
    code: 'KER-LKM-001',
    rest: () =>
      t.request('POST', '/v1/licensekeymanager/license/generate', { body: envelopeOf({ MISPId: 'misp\u0007', licenseExpiryTime: inDays(3) }), headers: admin }),
    graphql: () =>
      viaGraphql(
        'mutation($m: String!, $e: DateTime!) { generateLicenseKey(input: { MISPId: $m, licenseExpiryTime: $e }) { licenseKey { licenseKey } userErrors { field code message } } }',
        {
          m: 'misp\u0007',
          e: inDays(3),
        },
      ),
  },
  {
    name: 'license: more than 64 permissions',
    code: 'KER-LKM-007',
    rest: () =>
      t.request('POST', '/v1/licensekeymanager/license/permission', {
        body: envelopeOf({ licenseKey: 'k', MISPId: 'm', permissions: Array.from({ length: 65 }, (_, i) => `p${i}`) }),
        headers: admin,
      }),
    graphql: () =>
      viaGraphql(
        'mutation($p: [String!]!) { mapLicensePermissions(input: { licenseKey: "k", MISPId: "m", permissions: $p }) { licenseKey { id } userErrors { field code message } } }',
        {
          p: Array.from({ length: 65 }, (_, i) => `p${i}`),
        },
      ),
  },
  {
    name: 'OTP: a key with an escape sequence',
    code: 'KER-OTG-001',
    rest: () => t.request('POST', '/v1/otpmanager/otp/generate', { body: envelopeOf({ key: 'key\u001b[31m' }), headers: admin }),
    graphql: () =>
      viaGraphql('mutation($k: String!) { generateOtp(input: { key: $k }) { otpGeneration { status } userErrors { field code message } } }', {
        k: 'key\u001b[31m',
      }),
  },
  {
    name: 'OTP: an OTP longer than 64 characters',
    code: 'KER-OTV-004',
    rest: () => t.request('GET', `/v1/otpmanager/otp/validate?key=k&otp=${'1'.repeat(65)}`, { headers: admin }),
    graphql: () =>
      viaGraphql('mutation($o: String!) { validateOtp(input: { key: "k", otp: $o }) { otpValidation { status } userErrors { field code message } } }', {
        o: '1'.repeat(65),
      }),
  },
  {
    name: 'SMS: a number longer than 64 characters',
    code: 'KER-NOS-002',
    rest: () => t.request('POST', '/v1/smsnotifier/sms/send', { body: envelopeOf({ number: '9'.repeat(65), message: 'hello' }), headers: admin }),
    graphql: () =>
      viaGraphql(
        'mutation($n: String!) { sendSms(input: { number: $n, message: "hello" }) { notificationResult { status } userErrors { field code message } } }',
        { n: '9'.repeat(65) },
      ),
  },
  {
    name: 'keys: an application id with NUL',
    code: 'KER-KMS-013',
    rest: () => t.request('GET', '/v1/keymanager/getCertificate?applicationId=IDA%00', { headers: admin }),
    graphql: () => viaGraphql('query($a: String!) { certificate(applicationId: $a) { certificate } }', { a: 'IDA\u0000' }),
  },
  {
    name: 'crypto: an aad longer than 4096 characters',
    code: 'KER-CRY-003',
    rest: () =>
      t.request('POST', '/v1/cryptomanager/encrypt', {
        body: envelopeOf({ applicationId: 'KERNEL', data: 'aGVsbG8', aad: 'a'.repeat(4097), timeStamp: new Date().toISOString() }),
        headers: admin,
      }),
    graphql: () =>
      viaGraphql(
        'mutation($aad: String!) { encrypt(input: { applicationId: "KERNEL", data: "aGVsbG8", aad: $aad }) { cryptoResult { data } userErrors { field code message } } }',
        { aad: 'a'.repeat(4097) },
      ),
  },
  {
    name: 'TPM keys: a public key longer than 8192 characters',
    code: 'KER-CRY-002',
    rest: () => t.request('POST', '/v1/syncdata/tpm/publickey', { body: envelopeOf({ machineName: 'm1', publicKey: 'A'.repeat(8193) }), headers: admin }),
    graphql: () =>
      viaGraphql(
        'mutation($k: String!) { uploadMachinePublicKey(input: { machineName: "m1", publicKey: $k }) { machineKey { keyIndex } userErrors { field code message } } }',
        { k: 'A'.repeat(8193) },
      ),
  },
  {
    name: 'login: a user name with a control character',
    code: 'KER-ATH-003',
    rest: () =>
      t.request('POST', '/v1/authmanager/authenticate/internal/useridPwd', { body: envelopeOf({ userName: 'ad\u0000min', password: 'x', appId: 'admin' }) }),
    graphql: () =>
      viaGraphql(
        'mutation($u: String!) { loginWithPassword(input: { userName: $u, password: "x", appId: "admin" }) { passwordLogin { token } userErrors { field code message } } }',
        { u: 'ad\u0000min' },
        {},
      ),
  },
  {
    name: 'client login: an application id longer than 256 characters',
    code: 'KER-ATH-026',
    rest: () =>
      t.request('POST', '/v1/authmanager/authenticate/clientidsecretkey', { body: envelopeOf({ clientId: 'c', secretKey: 's', appId: 'a'.repeat(257) }) }),
    graphql: () =>
      viaGraphql(
        'mutation($a: String!) { loginWithClientSecret(input: { clientId: "c", secretKey: "s", appId: $a }) { clientLogin { token } userErrors { field code message } } }',
        { a: 'a'.repeat(257) },
        {},
      ),
  },
];

describe('one set of input rules for GraphQL and REST', () => {
  for (const c of cases) {
    it(`${c.name}: ${c.code} both ways, nothing changed`, async () => {
      await expectRejected(t, c.rest, c.code);
      await expectRejected(t, c.graphql, c.code);
    });
  }

  it('lets the same good input through both ways', async () => {
    const rest = await t.request('POST', '/v1/licensekeymanager/license/generate', {
      body: envelopeOf({ MISPId: 'misp-good', licenseExpiryTime: inDays(3) }),
      headers: admin,
    });
    expect(rest.json.errors).toBeNull();
    const graphql = await t.graphql(
      'mutation($e: DateTime!) { generateLicenseKey(input: { MISPId: "misp-good-2", licenseExpiryTime: $e }) { licenseKey { licenseKey } userErrors { field code message } } }',
      { e: inDays(3) },
      admin,
    );
    expect(graphql.errors).toBeUndefined();
    expect(graphql.data.generateLicenseKey.licenseKey.licenseKey).toMatch(/^[A-Za-z0-9]{16}$/);
  });
});
