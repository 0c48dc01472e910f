import { describe, expect, it } from 'vitest';
import { expectRejected } from '../support/assertions.js';
import { bearer, envelopeOf, type TestPlatform, useTestPlatform } from '../support/platform.js';

const BASE = '/partnermanagement/v1/misps';
let t: TestPlatform;
let auth: Record<string, string>;
useTestPlatform({ PLATFORM_MISP_LICENSE_DAYS: '30' }, (platform, adminCookie) => {
  t = platform;
  auth = adminCookie;
});

const send = (method: string, path: string, body?: unknown, headers = auth) =>
  t.request(method, BASE + path, { body: body === undefined ? undefined : envelopeOf(body), headers });
const register = async (organizationName: string) => {
  const { json } = await send('POST', '', { organizationName, contactNumber: '+212 600 000 000', emailId: 'ops@example.org', address: '1 Main Street' });
  expect(json.errors).toEqual([]);
  return json.response.mispID as string;
};
const approve = async (id: string) => (await send('PATCH', `/${id}/status`, { mispStatus: 'Approved' })).json.response;

describe('MISPs', () => {
  it('registers a MISP (Active), approves it with a license key, validates and regenerates the key', async () => {
    const { json } = await send('POST', '', { name: 'Telco One', emailId: 'one@example.org', address: 'Rabat' });
    expect(json).toMatchObject({ errors: [], response: { mispStatus: 'Active' } });
    const id: string = json.response.mispID;
    expect(id).toMatch(/^\d{6}$/);

    const approved = await approve(id);
    expect(approved).toMatchObject({ mispID: id, mispStatus: 'Active', mispStatusCode: 'Approved', mispLicenseKeyStatus: 'Active' });
    expect(approved.mispLicenseKey).toMatch(/^[A-Za-z0-9]{16}$/);
    const expiry = new Date(approved.mispLicenseKeyExpiry).getTime() - t.clock.now().getTime();
    expect(Math.round(expiry / 86_400_000)).toBe(30);
    expect((await send('PATCH', `/${id}/licenseKey`, { mispLicenseKey: approved.mispLicenseKey })).json.response).toEqual({ message: 'Valid' });
    expect((await send('GET', `/${id}/licenseKey`)).json.response).toMatchObject({
      mispId: id,
      licenseKeyHint: approved.mispLicenseKey.slice(-4),
      licenseKeyStatus: 'ACTIVE',
    });

    const renewed = (await send('PUT', `/${id}/licenseKey`)).json.response;
    expect(renewed.mispID).toBe(id);
    expect(renewed.mispLicenseKey).not.toBe(approved.mispLicenseKey);
    await expectRejected(t, () => send('PATCH', `/${id}/licenseKey`, { mispLicenseKey: approved.mispLicenseKey }), 'PMS_MSP_008');
    expect((await send('PATCH', `/${id}/licenseKey`, { mispLicenseKey: renewed.mispLicenseKey })).json.errors).toEqual([]);
    // Through the graph, the payload carries the MISP the key is issued to.
    const graph = await t.graphql(
      'mutation($id: ID!) { regenerateMispLicense(input: { mispId: $id }) { issuedMispLicense { mispId misp { id organizationName } } userErrors { code } } }',
      { id },
      auth,
    );
    expect(graph.data.regenerateMispLicense).toEqual({ issuedMispLicense: { mispId: id, misp: { id, organizationName: 'Telco One' } }, userErrors: [] });
  });

  it('rejects, updates, switches off and reads MISPs', async () => {
    const id = await register('Telco Two');
    expect((await send('PATCH', `/${id}/status`, { mispStatus: 'Rejected' })).json.response).toMatchObject({
      mispStatusCode: 'Rejected',
      mispLicenseKey: null,
    });
    await expectRejected(t, () => send('PATCH', `/${id}/status`, { mispStatus: 'Approved' }), 'PMS_COR_002');
    await expectRejected(t, () => send('PUT', `/${id}/licenseKey`), 'PMS_COR_002');
    const updated = (await send('PUT', `/${id}`, { emailID: 'two@example.org', address: 'Kenitra' })).json.response;
    expect(updated).toEqual({ id, organizationName: 'Telco Two', contactNumber: '+212 600 000 000', emailID: 'two@example.org', address: 'Kenitra' });
    expect((await send('PATCH', `/${id}`, { mispStatus: 'De-Active' })).json.response).toMatchObject({ mispID: id, mispStatus: 'De-Active' });
    expect((await send('GET', `/mispId/${id}`)).json.response).toMatchObject({ id, status: 'Rejected', mispStatus: 'De-Active', emailID: 'two@example.org' });
    expect((await send('GET', '/name/two')).json.response.map((m: any) => m.id)).toEqual([id]);
    expect((await send('GET', '')).json.response.map((m: any) => m.organizationName)).toContain('Telco Two');
  });

  it('gives each PMS_MSP code and changes nothing', async () => {
    const id = await register('Telco Three');
    await expectRejected(t, () => send('POST', '', { organizationName: 'Telco Three', emailId: 'x@example.org', address: 'x' }), 'PMS_MSP_003');
    await expectRejected(t, () => send('PUT', `/${id}`, {}), 'PMS_MSP_004');
    await expectRejected(t, () => send('PUT', '/999999', { address: 'x' }), 'PMS_MSP_005');
    await expectRejected(t, () => send('PATCH', '/999999/status', { mispStatus: 'Approved' }), 'PMS_MSP_005');
    await expectRejected(t, () => send('PATCH', `/${id}/licenseKey`, { mispLicenseKey: 'not-a-key!' }), 'PMS_MSP_008');
    await expectRejected(t, () => send('PATCH', `/${id}/licenseKey`, { mispLicenseKey: 'AAAAAAAAAAAAAAAA' }), 'PMS_MSP_008');
    await expectRejected(t, () => send('POST', '', { emailId: 'x@example.org', address: 'x' }), 'PMS_COR_001');
    await expectRejected(t, () => send('POST', '', { organizationName: 'Bad Mail', emailId: 'not-an-email', address: 'x' }), 'PMS_COR_002');
    await expectRejected(t, () => send('PATCH', `/${id}/status`, { mispStatus: 'Maybe' }), 'PMS_COR_002');
  });

  it("refuses another MISP's key and an expired one (PMS_MSP_008)", async () => {
    const a = await register('Telco Four');
    const b = await register('Telco Five');
    const keyA = (await approve(a)).mispLicenseKey as string;
    await approve(b);
    await expectRejected(t, () => send('PATCH', `/${b}/licenseKey`, { mispLicenseKey: keyA }), 'PMS_MSP_008');
    t.clock.advance(31 * 86_400_000);
    const fresh = { cookie: `Authorization=Platform-Token${await t.adminToken()}` };
    await expectRejected(t, () => send('PATCH', `/${a}/licenseKey`, { mispLicenseKey: keyA }, fresh), 'PMS_MSP_008');
  });

  it('lets exactly one of parallel registrations of a name through', async () => {
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => send('POST', '', { organizationName: 'Racing Telco', emailId: 'r@example.org', address: 'x' })),
    );
    expect(answers.map((a) => a.json.errors[0]?.errorCode ?? 'ok').sort()).toEqual(['PMS_MSP_003', 'PMS_MSP_003', 'PMS_MSP_003', 'PMS_MSP_003', 'ok']);
  });

  it('shows MISPs to the portal with their license keys, resolved by the license subgraph, and refuses other roles', async () => {
    const id = await register('Telco Graph');
    await approve(id);
    const token = await t.adminToken();
    const answer = await t.graphql(
      '{ misps(filter: {nameContains: "graph"}) { totalCount edges { node { id organizationName status createdBy { userId } licenseKeys { totalCount edges { node { keyHint status licenseKey } } } } } } }',
      {},
      bearer(token),
    );
    expect(answer.errors).toBeUndefined();
    const node = answer.data.misps.edges[0].node;
    expect(node).toMatchObject({ id, organizationName: 'Telco Graph', status: 'APPROVED', createdBy: { userId: 'admin' } });
    expect(node.licenseKeys.totalCount).toBe(1);
    expect(node.licenseKeys.edges[0].node).toMatchObject({ status: 'ACTIVE', licenseKey: null });
    const { token: partner } = await t.clientToken(['PARTNER']);
    for (const query of ['{ misps { totalCount } }', `{ misp(mispId: "${id}") { id } }`]) {
      expect((await t.graphql(query, {}, bearer(partner))).errors[0].extensions.code).toBe('KER-ATH-403');
    }
    await expectRejected(t, () => send('GET', '', undefined, bearer(partner)), 'KER-ATH-403');
  });

  it('PMS_COR_003: a failure of the platform itself, without its details', async () => {
    await t.platform.deps.prisma.$executeRawUnsafe('ALTER TABLE pms_misp RENAME TO pms_misp_away');
    try {
      const { json } = await send('GET', '');
      expect(json.errors).toEqual([{ errorCode: 'PMS_COR_003', message: expect.any(String) }]);
      expect(json.errors[0].message).not.toMatch(/pms_misp|relation|prisma/i);
    } finally {
      await t.platform.deps.prisma.$executeRawUnsafe('ALTER TABLE pms_misp_away RENAME TO pms_misp');
    }
  });
});
