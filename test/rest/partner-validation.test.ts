import { beforeAll, describe, expect, it } from 'vitest';
import { expectRejected } from '../support/assertions.js';
import { waitFor } from '../support/wait.js';
import { bearer, cookieHeader, envelopeOf, type TestPlatform, useTestPlatform } from '../support/platform.js';
import { userLogin } from '../support/users.js';

const BASE = '/partnermanagement/v1';
let t: TestPlatform;
let admin: Record<string, string>;
useTestPlatform({}, (platform, adminCookie) => {
  t = platform;
  admin = adminCookie;
});

const ok = async (call: Promise<{ json: any }>) => {
  const { json } = await call;
  expect(json.errors, JSON.stringify(json.errors)).toEqual([]);
  return json.response;
};
const send = (headers: Record<string, string>, method: string, path: string, body?: unknown) =>
  t.request(method, path.startsWith('/v1/') ? path : BASE + path, { body: body === undefined ? undefined : envelopeOf(body), headers });

const login = async (userId: string, roles: string[]) => (await userLogin(t, userId, roles)).cookie;

const life = { mispId: '', licenseKey: '', partnerId: 'P-LIFE', apiKey: '', policyId: '' };
let ida: Record<string, string>;
let policyManager: Record<string, string>;
let partnerManager: Record<string, string>;
const validate = (partnerId = life.partnerId, apiKey = life.apiKey, licenseKey = life.licenseKey) =>
  send(ida, 'GET', `/pmpartners/validatePartnerMisp/partnerId/${partnerId}/partnerApiKey/${apiKey}/mispLicenseKey/${licenseKey}`);

describe('validatePartnerMisp', () => {
  beforeAll(async () => {
    // MISP created → approved → license key
    const misp = await ok(send(admin, 'POST', '/misps', { organizationName: 'Life Telco', emailId: 'life@example.org', address: 'Rabat' }));
    life.mispId = misp.mispID;
    life.licenseKey = (await ok(send(admin, 'PATCH', `/misps/${life.mispId}/status`, { mispStatus: 'Approved' }))).mispLicenseKey;
    // policy created by the default group's policy manager
    policyManager = await login('life-policy-manager', ['POLICYMANAGER']);
    partnerManager = await login('life-partner-manager', ['PARTNERMANAGER']);
    await ok(send(admin, 'POST', '/policies/group/default/managers', { userId: 'life-policy-manager' }));
    await ok(send(admin, 'POST', '/policies/group/default/managers', { userId: 'life-partner-manager' }));
    const policy = await ok(
      send(policyManager, 'POST', '/policies', {
        name: 'Life policy',
        desc: 'OTP and demographic authentication',
        policies: {
          authPolicies: [
            { authType: 'otp', authSubType: null, mandatory: true },
            { authType: 'demo', authSubType: null, mandatory: false },
          ],
          allowedKycAttributes: [],
        },
      }),
    );
    life.policyId = policy.policies[0].id;
    // partner registered → API key requested → approved
    const partner = await login('life-partner', ['PARTNER']);
    await ok(
      send(partner, 'POST', '/partners', {
        partnerId: life.partnerId,
        organizationName: 'Life Bank',
        contactNumber: '9876543210',
        emailId: 'bank@example.org',
        address: 'Casablanca',
        policyGroup: 'default',
      }),
    );
    const { apiRequestId } = await ok(
      send(partner, 'PATCH', `/partners/${life.partnerId}/partnerAPIKeyRequests`, { policyName: 'Life policy', useCaseDescription: 'auth' }),
    );
    life.apiKey = (await ok(send(partnerManager, 'PATCH', `/pmpartners/PartnerAPIKeyRequests/${apiRequestId}`, { status: 'Approved' }))).partnerAPIKey;
    ida = cookieHeader((await t.clientToken(['ID_AUTHENTICATION'], 'ida')).token);
  });

  it('returns the policy of the partner key through the whole chain (REST and GraphQL)', async () => {
    const answer = await ok(validate());
    expect(answer).toEqual({
      policyId: life.policyId,
      policyName: 'Life policy',
      policyDescription: 'OTP and demographic authentication',
      policyStatus: true,
      policy: {
        policyId: life.policyId,
        policies: {
          authPolicies: [
            { authType: 'otp', authSubType: null, mandatory: true },
            { authType: 'demo', authSubType: null, mandatory: false },
          ],
          allowedKycAttributes: [],
        },
      },
      partnerId: life.partnerId,
      partnerName: 'Life Bank',
    });
    const graph = await t.graphql(
      'query($p: ID!, $k: String!, $l: String!) { validatePartnerMisp(partnerId: $p, partnerApiKey: $k, mispLicenseKey: $l) { policyId partnerName } }',
      { p: life.partnerId, k: life.apiKey, l: life.licenseKey },
      bearer(ida.cookie!.replace('Authorization=Platform-Token', '')),
    );
    expect(graph.data.validatePartnerMisp).toEqual({ policyId: life.policyId, partnerName: 'Life Bank' });
  });

  it('fails with the code of the first link switched off, and passes again once it is back', async () => {
    const links: [string, () => Promise<unknown>, () => Promise<unknown>][] = [
      [
        'PMS_PMP_025',
        () => ok(send(admin, 'PUT', '/v1/licensekeymanager/license/status', { licenseKey: life.licenseKey, status: 'SUSPENDED' })).catch(() => undefined),
        () => send(admin, 'PUT', '/v1/licensekeymanager/license/status', { licenseKey: life.licenseKey, status: 'ACTIVE' }),
      ],
      [
        'PMS_PMP_025',
        () => send(admin, 'PATCH', `/misps/${life.mispId}`, { mispStatus: 'De-Active' }),
        () => send(admin, 'PATCH', `/misps/${life.mispId}`, { mispStatus: 'Active' }),
      ],
      [
        'PMS_PMP_016',
        () => send(partnerManager, 'PATCH', `/pmpartners/${life.partnerId}`, { status: 'De-Active' }),
        () => send(partnerManager, 'PATCH', `/pmpartners/${life.partnerId}`, { status: 'Active' }),
      ],
      [
        'PMS_PMP_007',
        () => send(partnerManager, 'PATCH', `/pmpartners/${life.partnerId}/${life.apiKey}`, { status: 'De-Active' }),
        () => send(partnerManager, 'PATCH', `/pmpartners/${life.partnerId}/${life.apiKey}`, { status: 'Active' }),
      ],
      [
        'PMS_PMP_019',
        () => send(policyManager, 'PATCH', `/policies/${life.policyId}`, { status: 'De-Active' }),
        () => send(policyManager, 'PATCH', `/policies/${life.policyId}`, { status: 'Active' }),
      ],
    ];
    for (const [code, off, on] of links) {
      await off();
      await expectRejected(t, () => validate(), code);
      await on();
      expect((await validate()).json.errors, code).toEqual([]);
    }
  });

  it('drops its cached links when another instance changes a link (the tables announce it through the database)', async () => {
    expect((await validate()).json.errors).toEqual([]);
    // Written behind this process's services, as another instance would: only the trigger's NOTIFY tells the cache.
    const prisma = t.platform.deps.prisma;
    await prisma.partner.update({ where: { id: life.partnerId }, data: { status: 'De-Active' } });
    try {
      await waitFor(async () => (await validate()).json.errors?.[0]?.errorCode === 'PMS_PMP_016', 'the cached links dropped');
    } finally {
      await prisma.partner.update({ where: { id: life.partnerId }, data: { status: 'Active' } });
    }
    await waitFor(async () => (await validate()).json.errors?.length === 0, 'the partner active again');
  });

  it('names the missing or wrong link: unknown license key, MISP, partner or key; another partner key; an expired license', async () => {
    await expectRejected(t, () => validate(life.partnerId, life.apiKey, 'AAAAAAAAAAAAAAAA'), 'PMS_PMP_020');
    await expectRejected(t, () => validate('NO-SUCH-PARTNER'), 'PMS_PMP_005');
    await expectRejected(t, () => validate(life.partnerId, 'short'), 'PMS_PMP_007');
    await expectRejected(t, () => validate(life.partnerId, 'B'.repeat(32)), 'PMS_PMP_007');
    // A key of the kernel's license manager for a MISP that partner management does not know.
    const other = await send(admin, 'POST', '/v1/licensekeymanager/license/generate', {
      MISPId: 'NO-SUCH-MISP',
      licenseExpiryTime: new Date(t.clock.now().getTime() + 86_400_000).toISOString(),
    });
    await expectRejected(t, () => validate(life.partnerId, life.apiKey, other.json.response.licenseKey), 'PMS_MSP_005');
    const refused = await send(
      cookieHeader((await t.clientToken(['PARTNER'])).token),
      'GET',
      `/pmpartners/validatePartnerMisp/partnerId/${life.partnerId}/partnerApiKey/${life.apiKey}/mispLicenseKey/${life.licenseKey}`,
    );
    expect(refused.json.errors[0].errorCode).toBe('KER-ATH-403');
    t.clock.advance(366 * 86_400_000);
    ida = cookieHeader((await t.clientToken(['ID_AUTHENTICATION'], 'ida')).token);
    await expectRejected(t, () => validate(), 'PMS_PMP_021');
  });
});
