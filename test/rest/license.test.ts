import { describe, expect, it } from 'vitest';
import { expectRejected } from '../support/assertions.js';
import { bearer, cookieHeader, envelopeOf, type TestPlatform, useTestPlatform } from '../support/platform.js';
import { refusalOf } from '../support/refusals.js';

const BASE = '/v1/licensekeymanager/license';
let t: TestPlatform;
let auth: Record<string, string>;
useTestPlatform({}, (platform, adminCookie) => {
  t = platform;
  auth = adminCookie;
});

const inDays = (days: number) => new Date(t.clock.now().getTime() + days * 86_400_000).toISOString();
const send = (method: string, path: string, body?: unknown) =>
  t.request(method, BASE + path, { body: body === undefined ? undefined : envelopeOf(body), headers: auth });
const generate = async (MISPId = 'misp-1', licenseExpiryTime = inDays(90)) => (await send('POST', '/generate', { MISPId, licenseExpiryTime })).json;
const permissionsOf = (licenseKey: string, MISPId = 'misp-1') =>
  t.request('GET', `${BASE}/permission?licenseKey=${encodeURIComponent(licenseKey)}&MISPId=${encodeURIComponent(MISPId)}`, { headers: auth });

describe('license key manager', () => {
  it('generates a key, maps permissions, reads them, and changes the status', async () => {
    const generated = await generate();
    const key: string = generated.response.licenseKey;
    expect(key).toMatch(/^[A-Za-z0-9]{16}$/);
    const mapped = await send('POST', '/permission', { licenseKey: key, MISPId: 'misp-1', permissions: ['OTP Trigger', 'eKYC'] });
    expect(mapped.json.response.status).toBe('Mapped License with the permissions');
    expect((await permissionsOf(key)).json.response.permissions).toEqual(['OTP Trigger', 'eKYC']);
    const suspended = await send('PUT', '/status', { licenseKey: key, status: 'SUSPENDED' });
    expect(suspended.json.response.status).toMatch(/SUSPENDED/);
    expect((await permissionsOf(key)).json.errors[0].errorCode).toBe('KER-LKM-012');
    await send('PUT', '/status', { licenseKey: key, status: 'ACTIVE' });
    expect((await permissionsOf(key)).json.response.permissions).toContain('eKYC');
  });

  it('keeps only an HMAC of the key: neither the database nor listings hold it', async () => {
    const key: string = (await generate('misp-secret')).response.licenseKey;
    const rows = await t.platform.deps.prisma.licenseKey.findMany();
    expect(JSON.stringify(rows)).not.toContain(key);
    const listed = await t.graphql(
      '{ licenseKeys(filter: {MISPId: "misp-secret"}) { totalCount edges { node { licenseKey keyHint MISPId status createdBy { userId } } } } }',
      {},
      bearer(await t.adminToken()),
    );
    expect(listed.data.licenseKeys.totalCount).toBe(1);
    expect(listed.data.licenseKeys.edges.map((e: any) => e.node)).toEqual([
      { licenseKey: null, keyHint: key.slice(-4), MISPId: 'misp-secret', status: 'ACTIVE', createdBy: { userId: 'admin' } },
    ]);
  });

  it('takes and answers the MISP id as mispId in the graph (MISPId deprecated, still read), and refuses neither with KER-LKM-001', async () => {
    const admin = bearer(await t.adminToken());
    const generated = await t.graphql(
      'mutation($e: DateTime!) { generateLicenseKey(input: { mispId: "misp-cased", licenseExpiryTime: $e }) { licenseKey { licenseKey mispId MISPId } userErrors { field code message } } }',
      { e: inDays(1) },
      admin,
    );
    const issued = generated.data.generateLicenseKey.licenseKey;
    expect(issued).toMatchObject({ mispId: 'misp-cased', MISPId: 'misp-cased' });
    const permissions = await t.graphql(
      'mutation($k: String!) { mapLicensePermissions(input: { licenseKey: $k, mispId: "misp-cased", permissions: ["eKYC"] }) { licenseKey { mispId } userErrors { code } } }',
      { k: issued.licenseKey },
      admin,
    );
    expect(permissions.data.mapLicensePermissions).toEqual({ licenseKey: { mispId: 'misp-cased' }, userErrors: [] });
    const read = await t.graphql('query($k: String!) { licensePermissions(licenseKey: $k, mispId: "misp-cased") }', { k: issued.licenseKey }, admin);
    expect(read.data.licensePermissions).toContain('eKYC');
    const neither = await t.graphql(
      'mutation($e: DateTime!) { generateLicenseKey(input: { licenseExpiryTime: $e }) { licenseKey { id } userErrors { code } } }',
      { e: inDays(1) },
      admin,
    );
    expect(neither.data.generateLicenseKey.userErrors.map((error: { code: string }) => error.code)).toEqual(['KER-LKM-001']);
  });

  it('draws distinct keys from a CSPRNG', async () => {
    const keys = new Set<string>();
    // One login for the hundred keys: a login is a deliberately slow scrypt check.
    const admin = bearer(await t.adminToken());
    for (let i = 0; i < 100; i++)
      keys.add(
        (
          await t.graphql(
            'mutation($e: DateTime!) { generateLicenseKey(input: { MISPId: "misp-many", licenseExpiryTime: $e }) { licenseKey { licenseKey } userErrors { field code message } } }',
            { e: inDays(1) },
            admin,
          )
        ).data.generateLicenseKey.licenseKey.licenseKey,
      );
    expect(keys.size).toBe(100);
  });

  it('enforces expiry at use time (KER-LKM-005)', async () => {
    const key: string = (await generate('misp-short', inDays(1))).response.licenseKey;
    await send('POST', '/permission', { licenseKey: key, MISPId: 'misp-short', permissions: ['OTP Trigger'] });
    t.clock.advance(2 * 86_400_000);
    auth = cookieHeader(await t.adminToken()); // the old token expired with the clock
    await expectRejected(t, () => permissionsOf(key, 'misp-short'), 'KER-LKM-005');
    await expectRejected(t, () => send('POST', '/permission', { licenseKey: key, MISPId: 'misp-short', permissions: ['eKYC'] }), 'KER-LKM-005');
  });

  it('gives every KER-LKM code and changes nothing', async () => {
    const key: string = (await generate('misp-codes')).response.licenseKey;
    await expectRejected(t, () => send('POST', '/generate', { MISPId: '', licenseExpiryTime: inDays(1) }), 'KER-LKM-001');
    await expectRejected(t, () => send('POST', '/generate', { licenseExpiryTime: inDays(1) }), 'KER-LKM-001');
    await expectRejected(t, () => send('POST', '/generate', { MISPId: 'm', licenseExpiryTime: inDays(-1) }), 'KER-LKM-008');
    await expectRejected(t, () => send('POST', '/generate', { MISPId: 'm', licenseExpiryTime: 'next year' }), 'KER-LKM-011');
    await expectRejected(t, () => send('POST', '/permission', { licenseKey: key, MISPId: 'misp-codes', permissions: ['Fly'] }), 'KER-LKM-003');
    await expectRejected(t, () => send('POST', '/permission', { licenseKey: 'NoSuchKey0000000', MISPId: 'misp-codes', permissions: ['eKYC'] }), 'KER-LKM-004');
    await expectRejected(t, () => send('POST', '/permission', { licenseKey: key, MISPId: 'another-misp', permissions: ['eKYC'] }), 'KER-LKM-004');
    await expectRejected(t, () => send('POST', '/permission', { licenseKey: '', MISPId: 'misp-codes', permissions: ['eKYC'] }), 'KER-LKM-006');
    await expectRejected(t, () => send('POST', '/permission', { MISPId: 'misp-codes', permissions: ['eKYC'] }), 'KER-LKM-006');
    await expectRejected(t, () => send('POST', '/permission', { licenseKey: key, MISPId: 'misp-codes', permissions: [''] }), 'KER-LKM-007');
    await expectRejected(t, () => send('POST', '/permission', { licenseKey: key, MISPId: 'misp-codes', permissions: [] }), 'KER-LKM-007');
    await expectRejected(t, () => permissionsOf(key, 'misp-codes'), 'KER-LKM-009');
    await expectRejected(t, () => t.request('GET', `${BASE}/permission?MISPId=misp-codes`, { headers: auth }), 'KER-LKM-006');
    await expectRejected(t, () => send('PUT', '/status', { licenseKey: 'NoSuchKey0000000', status: 'BLOCKED' }), 'KER-LKM-004');
    await expectRejected(t, () => send('PUT', '/status', { licenseKey: key, status: 'PAUSED' }), 'KER-LKM-010');
  });

  it('is for license administrators: KER-ATH-006 without a token, KER-ATH-403 for other roles; GraphQL gives the same codes', async () => {
    await expectRejected(t, () => t.request('POST', `${BASE}/generate`, { body: envelopeOf({ MISPId: 'x', licenseExpiryTime: inDays(1) }) }), 'KER-ATH-006');
    const admin = bearer(await t.adminToken());
    await t.graphql(
      'mutation { createUser(input: {userId: "lk-officer", password: "officer-pass-1", roles: [REGISTRATION_OFFICER], appIds: ["registrationclient"]}) { user { userId } userErrors { field code message } } }',
      {},
      admin,
    );
    const login = await t.graphql(
      'mutation { loginWithPassword(input: { userName: "lk-officer", password: "officer-pass-1", appId: "registrationclient" }) { passwordLogin { token } userErrors { field code message } } }',
    );
    await expectRejected(
      t,
      () =>
        t.request('POST', `${BASE}/generate`, {
          body: envelopeOf({ MISPId: 'x', licenseExpiryTime: inDays(1) }),
          headers: cookieHeader(login.data.loginWithPassword.passwordLogin.token),
        }),
      'KER-ATH-403',
    );
    const bad = await t.graphql(
      'mutation { generateLicenseKey(input: { MISPId: "x", licenseExpiryTime: "2000-01-01T00:00:00.000Z" }) { licenseKey { licenseKey } userErrors { field code message } } }',
      {},
      admin,
    );
    expect(refusalOf(bad)!.code).toBe('KER-LKM-008');
    const values = await t.graphql('{ licensePermissionValues }', {}, admin);
    expect(values.data.licensePermissionValues).toContain('OTP Authentication');
  });
});
