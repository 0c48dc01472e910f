import { beforeAll, describe, expect, it } from 'vitest';
import { expectRejected } from '../support/assertions.js';
import { pmsCalls } from '../support/pms.js';
import { ADMIN_PASSWORD, bearer, cookieHeader, startTestPlatform, type TestPlatform, useTestPlatform } from '../support/platform.js';
import { userLogin } from '../support/users.js';
import { refusalCode as codeOf } from '../support/refusals.js';

// The sample country makes the bootstrap admin partner manager and policy manager of the default group (README, "Sample country").
let t: TestPlatform;
useTestPlatform({ PLATFORM_SAMPLE_DATA: 'true' }, (platform) => {
  t = platform;
});

const { send, ok } = pmsCalls(() => t);
const policyBody = (name: string) => ({
  name,
  desc: 'OTP',
  policies: { authPolicies: [{ authType: 'otp', authSubType: null, mandatory: true }], allowedKycAttributes: [] },
});

/** The admin's credentials for each application partner management accepts of it. */
const admin: Record<'admin' | 'partnermanagement', { cookie: Record<string, string>; bearer: Record<string, string> }> = {} as never;

beforeAll(async () => {
  const adminApp = await t.adminToken();
  admin.admin = { cookie: cookieHeader(adminApp), bearer: bearer(adminApp) };
  const login = await t.graphql(
    'mutation($p: String!) { loginWithPassword(input: { userName: "admin", password: $p, appId: "partnermanagement" }) { passwordLogin { token } userErrors { field code message } } }',
    {
      p: ADMIN_PASSWORD,
    },
  );
  expect(login.errors).toBeUndefined();
  const token: string = login.data.loginWithPassword.passwordLogin.token;
  admin.partnermanagement = { cookie: cookieHeader(token), bearer: bearer(token) };
});

describe('the sample country’s admin in partner management', () => {
  it('manages the default policy group from the start, mapped by the sample country', async () => {
    const rows = await t.platform.deps.prisma.policyGroupManager.findMany({ select: { policyGroupId: true, userId: true, createdBy: true } });
    expect(rows).toEqual([{ policyGroupId: 'default', userId: 'admin', createdBy: 'sample-data' }]);
    // The groups from the whole list, their managers from a page of them: 100 managers under each of up to 1,000 groups weigh past the cost limit.
    const graph = await t.graphql(
      '{ policyGroupList { id } policyGroups { totalCount edges { node { id managers { userId } } } } }',
      {},
      admin.partnermanagement.bearer,
    );
    expect(graph.errors).toBeUndefined();
    expect(graph.data.policyGroupList).toEqual([{ id: 'default' }]);
    expect(graph.data.policyGroups.totalCount).toBe(1);
    expect(graph.data.policyGroups.edges.map((edge: any) => edge.node)).toEqual([{ id: 'default', managers: [{ userId: 'admin' }] }]);
  });

  it('GET /pmpartners: PMS_PMP_004 while the group has no partner (not PMS_PMP_001), through REST and GraphQL', async () => {
    for (const app of ['admin', 'partnermanagement'] as const) {
      await expectRejected(t, () => send(admin[app].cookie, 'GET', '/pmpartners'), 'PMS_PMP_004');
      expect(codeOf(await t.graphql('{ managedPartners { id } }', {}, admin[app].bearer))).toBe('PMS_PMP_004');
    }
  });

  it('creates a policy in default at once', async () => {
    for (const app of ['admin', 'partnermanagement'] as const) {
      const [created] = (await ok(send(admin[app].cookie, 'POST', '/policies', policyBody(`sample-admin-${app}`)))).policies;
      expect(created).toMatchObject({ name: `sample-admin-${app}`, is_Active: true });
      expect((await t.platform.deps.prisma.policy.findUnique({ where: { id: created.id } }))?.policyGroupId).toBe('default');
    }
  });

  describe('with a partner in default', () => {
    beforeAll(async () => {
      const partner = await userLogin(t, 'sample-partner', ['PARTNER']);
      await ok(
        send(partner.cookie, 'POST', '/partners', {
          partnerId: 'SAMPLE-P',
          organizationName: 'Sample Bank',
          contactNumber: '9876543210',
          emailId: 'bank@example.org',
          address: '1 Sample Road',
          policyGroup: 'default',
        }),
      );
    });

    it('lists it', async () => {
      for (const app of ['admin', 'partnermanagement'] as const) {
        expect((await ok(send(admin[app].cookie, 'GET', '/pmpartners'))).partners.map((p: any) => p.partnerID)).toEqual(['SAMPLE-P']);
      }
      const graph = await t.graphql('{ managedPartners { id } }', {}, admin.partnermanagement.bearer);
      expect(graph.data.managedPartners).toEqual([{ id: 'SAMPLE-P' }]);
    });

    it('an unknown partner, API key or request gets its own code: PMS_PMP_005, PMS_PMP_007, PMS_PMP_011', async () => {
      const { cookie, bearer: auth } = admin.partnermanagement;
      await expectRejected(t, () => send(cookie, 'PATCH', '/pmpartners/NO-SUCH-PARTNER', { status: 'De-Active' }), 'PMS_PMP_005');
      await expectRejected(t, () => send(cookie, 'PATCH', '/pmpartners/SAMPLE-P/NoSuchKey0123456789', { status: 'De-Active' }), 'PMS_PMP_007');
      await expectRejected(t, () => send(cookie, 'PATCH', '/pmpartners/PartnerAPIKeyRequests/no-such-request', { status: 'Approved' }), 'PMS_PMP_011');
      await expectRejected(
        t,
        () => send(admin.admin.cookie, 'PATCH', '/pmpartners/PartnerAPIKeyRequests/no-such-request', { status: 'Approved' }),
        'PMS_PMP_011',
      );
      const graph = (query: string) => t.graphql(query, {}, auth).then(codeOf);
      expect(
        await graph(
          'mutation { updatePartnerStatus(input: { partnerId: "NO-SUCH-PARTNER", status: DE_ACTIVE }) { partnerMessage { message } userErrors { field code message } } }',
        ),
      ).toBe('PMS_PMP_005');
      expect(
        await graph(
          'mutation { updatePartnerApiKeyStatus(input: { partnerId: "SAMPLE-P", partnerApiKey: "NoSuchKey0123456789", status: DE_ACTIVE }) { partnerMessage { message } userErrors { field code message } } }',
        ),
      ).toBe('PMS_PMP_007');
      expect(
        await graph(
          'mutation { decideApiKeyRequest(input: { apiKeyReqId: "no-such-request", status: APPROVED }) { apiKeyDecision { message } userErrors { field code message } } }',
        ),
      ).toBe('PMS_PMP_011');
    });
  });

  it('maps the admin once: a later start on the same database leaves an operator’s removal alone', async () => {
    await ok(send(admin.admin.cookie, 'DELETE', '/policies/group/default/managers/admin'));
    const again = await startTestPlatform({ PLATFORM_SAMPLE_DATA: 'true' }, { database: t.platform.database });
    try {
      expect(await again.platform.deps.prisma.policyGroupManager.count({ where: { userId: 'admin' } })).toBe(0);
      await expectRejected(t, () => send(admin.partnermanagement.cookie, 'GET', '/pmpartners'), 'PMS_PMP_001', /manages no policy group/);
    } finally {
      await again.close();
    }
    // An admin maps it back as any manager.
    await ok(send(admin.admin.cookie, 'POST', '/policies/group/default/managers', { userId: 'admin' }));
    expect((await ok(send(admin.partnermanagement.cookie, 'GET', '/pmpartners'))).partners).toHaveLength(1);
  });
});
