import { beforeAll, describe, expect, it } from 'vitest';
import { pmsCalls } from '../support/pms.js';
import { expectRejected } from '../support/assertions.js';
import { bearer, cookieHeader, type TestPlatform, useTestPlatform } from '../support/platform.js';
import { type Login, TEST_USER_PASSWORD, userLogin } from '../support/users.js';
import { refusalCode as codeOf } from '../support/refusals.js';

const MAX_AGE_DAYS = 30;
const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;
let t: TestPlatform;
useTestPlatform({ PLATFORM_PASSWORD_MAX_AGE_DAYS: String(MAX_AGE_DAYS) }, (platform) => {
  t = platform;
});

type Credentials = Record<string, string>;
const { send, ok } = pmsCalls(() => t);
const clientCookie = async (roles: string[], appId = 'partnermanagement') => cookieHeader((await t.clientToken(roles, appId)).token);
const login = async (userId: string, password = TEST_USER_PASSWORD, appId = 'partnermanagement') => {
  const answer = await t.graphql(
    'mutation($u: String!, $p: String!, $a: String!) { loginWithPassword(input: { userName: $u, password: $p, appId: $a }) { passwordLogin { token } userErrors { field code message } } }',
    {
      u: userId,
      p: password,
      a: appId,
    },
  );
  expect(answer.errors).toBeUndefined();
  const token: string = answer.data.loginWithPassword.passwordLogin.token;
  return { token, cookie: cookieHeader(token), bearer: bearer(token) } satisfies Login;
};
const changePassword = (who: Login, currentPassword: string, newPassword: string) =>
  t.graphql(
    'mutation($c: String!, $n: String!) { changePassword(input: { currentPassword: $c, newPassword: $n }) { result userErrors { field code message } } }',
    { c: currentPassword, n: newPassword },
    who.bearer,
  );

const misp = { organizationName: 'Callers Telco', emailId: 'telco@example.org', address: '1 Callers Road' };
const createMisp = (headers: Credentials, over: Record<string, unknown> = {}) => send(headers, 'POST', '/misps', { ...misp, ...over });
const policyBody = {
  name: 'callers-policy',
  desc: 'OTP',
  policies: { authPolicies: [{ authType: 'otp', authSubType: null, mandatory: true }], allowedKycAttributes: [] },
};

let manager: Login;
let validatePath: string;

beforeAll(async () => {
  const admin = cookieHeader(await t.adminToken());
  manager = await userLogin(t, 'callers-manager', ['PARTNERMANAGER']);
  const policyManager = await userLogin(t, 'callers-policy-manager', ['POLICYMANAGER']);
  const partner = await userLogin(t, 'callers-partner', ['PARTNER']);
  for (const userId of ['callers-manager', 'callers-policy-manager']) await ok(send(admin, 'POST', '/policies/group/default/managers', { userId }));
  const { mispID } = await ok(createMisp(admin));
  const { mispLicenseKey } = await ok(send(admin, 'PATCH', `/misps/${mispID as string}/status`, { mispStatus: 'Approved' }));
  await ok(send(policyManager.cookie, 'POST', '/policies', policyBody));
  await ok(
    send(partner.cookie, 'POST', '/partners', {
      partnerId: 'CALLERS-P',
      organizationName: 'Callers Bank',
      contactNumber: '9876543210',
      emailId: 'bank@example.org',
      address: '2 Callers Road',
      policyGroup: 'default',
    }),
  );
  const { apiRequestId } = await ok(send(partner.cookie, 'PATCH', '/partners/CALLERS-P/partnerAPIKeyRequests', { policyName: 'callers-policy' }));
  const { partnerAPIKey } = await ok(send(manager.cookie, 'PATCH', `/pmpartners/PartnerAPIKeyRequests/${apiRequestId as string}`, { status: 'Approved' }));
  validatePath = `/pmpartners/validatePartnerMisp/partnerId/CALLERS-P/partnerApiKey/${partnerAPIKey as string}/mispLicenseKey/${mispLicenseKey as string}`;
});

describe('partner management callers', () => {
  it('PMS_MSP_001 / 002: a MISP admin is a user, with a partner management or admin token', async () => {
    const machine = await clientCookie(['GLOBAL_ADMIN']);
    await expectRejected(t, () => createMisp(machine), 'PMS_MSP_001', /client login, not a user/);
    const residentApp = await userLogin(t, 'callers-admin-resident', ['PARTNER_ADMIN'], 'resident');
    await expectRejected(t, () => createMisp(residentApp.cookie), 'PMS_MSP_002', /issued for resident/);
    const graph = await t.graphql('{ misps { totalCount } }', {}, residentApp.bearer);
    expect(codeOf(graph)).toBe('PMS_MSP_002');
    // The same role with a partner management token is admitted.
    const admin = await userLogin(t, 'callers-admin', ['PARTNER_ADMIN']);
    expect((await ok(createMisp(admin.cookie, { organizationName: 'Callers Telco 2' }))).mispStatus).toBe('Active');
    // An account removed from the user store after its token was issued.
    const gone = await userLogin(t, 'callers-admin-gone', ['PARTNER_ADMIN']);
    await t.platform.deps.prisma.user.delete({ where: { userId: 'callers-admin-gone' } });
    await expectRejected(t, () => createMisp(gone.cookie, { organizationName: 'Gone Telco' }), 'PMS_MSP_001', /no user callers-admin-gone/);
  });

  it('PMS_POL_001 / 002: a policy manager is a user with a partner management token', async () => {
    const machine = await clientCookie(['POLICYMANAGER']);
    await expectRejected(t, () => send(machine, 'POST', '/policies', { ...policyBody, name: 'machine-policy' }), 'PMS_POL_001');
    const adminApp = await userLogin(t, 'callers-pol-admin-app', ['POLICYMANAGER'], 'admin');
    await expectRejected(t, () => send(adminApp.cookie, 'POST', '/policies', { ...policyBody, name: 'admin-app-policy' }), 'PMS_POL_002');
    expect(codeOf(await t.graphql('{ policies { totalCount } }', {}, adminApp.bearer))).toBe('PMS_POL_002');
  });

  it('PMS_PMP_001 / 002: a partner manager manages a group, as a user, with a partner management token', async () => {
    const none = await userLogin(t, 'callers-manager-none', ['PARTNERMANAGER']);
    await expectRejected(t, () => send(none.cookie, 'GET', '/pmpartners'), 'PMS_PMP_001', /manages no policy group/);
    await expectRejected(t, () => send(none.cookie, 'PATCH', '/pmpartners/CALLERS-P', { status: 'De-Active' }), 'PMS_PMP_001');
    await expectRejected(t, () => send(none.cookie, 'PATCH', '/pmpartners/PartnerAPIKeyRequests/anything', { status: 'Approved' }), 'PMS_PMP_001');
    const machine = await clientCookie(['PARTNERMANAGER']);
    await expectRejected(t, () => send(machine, 'GET', '/pmpartners'), 'PMS_PMP_001', /client login/);
    const residentApp = await userLogin(t, 'callers-manager-resident', ['PARTNERMANAGER'], 'resident');
    await expectRejected(t, () => send(residentApp.cookie, 'GET', '/pmpartners'), 'PMS_PMP_002', /issued for resident/);
    await expectRejected(t, () => send(residentApp.cookie, 'GET', validatePath), 'PMS_PMP_002');
    expect(codeOf(await t.graphql('{ managedPartners { id } }', {}, residentApp.bearer))).toBe('PMS_PMP_002');
    expect((await ok(send(manager.cookie, 'GET', '/pmpartners'))).partners.map((p: any) => p.partnerID)).toContain('CALLERS-P');
  });

  it('validatePartnerMisp: ID authentication clients with an ida token, others with PMS_PMP_002', async () => {
    expect((await ok(send(await clientCookie(['ID_AUTHENTICATION'], 'ida'), 'GET', validatePath))).partnerId).toBe('CALLERS-P');
    const residentApp = await clientCookie(['ID_AUTHENTICATION'], 'resident');
    await expectRejected(t, () => send(residentApp, 'GET', validatePath), 'PMS_PMP_002');
  });

  it('PMS_PRT_003: a partner is a user with a partner management token', async () => {
    const residentApp = await userLogin(t, 'callers-partner-resident', ['PARTNER'], 'resident');
    await expectRejected(t, () => send(residentApp.cookie, 'GET', '/partners/digitalcertificate'), 'PMS_PRT_003', /issued for resident/);
    const machine = await clientCookie(['PARTNER']);
    await expectRejected(t, () => send(machine, 'GET', '/partners/digitalcertificate'), 'PMS_PRT_003', /client login/);
    expect(codeOf(await t.graphql('{ partnerPlatformCertificate }', {}, residentApp.bearer))).toBe('PMS_PRT_003');
  });

  it('PMS_PMP_003 / PMS_PRT_004 / PMS_MSP_002: an expired password stops partner management until the user changes it', async () => {
    // A token checked before the expiry is checked again after it.
    t.clock.advance(MAX_AGE_DAYS * DAY_MS - 10 * MINUTE_MS);
    const early = await login('callers-manager');
    expect((await ok(send(early.cookie, 'GET', '/pmpartners'))).partners).not.toHaveLength(0);
    t.clock.advance(20 * MINUTE_MS);
    await expectRejected(t, () => send(early.cookie, 'GET', '/pmpartners'), 'PMS_PMP_003', /password expired/);
    // Logging in still works (to change the password), partner management does not.
    const staleManager = await login('callers-manager');
    await expectRejected(t, () => send(staleManager.cookie, 'GET', '/pmpartners'), 'PMS_PMP_003', /password expired/);
    await expectRejected(t, () => send(staleManager.cookie, 'GET', validatePath), 'PMS_PMP_003');
    const stalePartner = await login('callers-partner');
    await expectRejected(t, () => send(stalePartner.cookie, 'GET', '/partners/digitalcertificate'), 'PMS_PRT_004');
    const partnerGraph = await t.graphql('{ partners { totalCount } }', {}, stalePartner.bearer);
    expect(codeOf(partnerGraph)).toBe('PMS_PRT_004');
    const admin = await login('callers-admin');
    await expectRejected(t, () => createMisp(admin.cookie, { organizationName: 'Late Telco' }), 'PMS_MSP_002', /password expired/);
    // The admin portal shows when each password expires.
    const shown = await t.graphql('{ user(userId: "callers-manager") { passwordChangedAt passwordExpiresAt } }', {}, bearer(await t.adminToken()));
    const { passwordChangedAt, passwordExpiresAt } = shown.data.user;
    expect(Date.parse(passwordExpiresAt) - Date.parse(passwordChangedAt)).toBe(MAX_AGE_DAYS * DAY_MS);

    // A changed password ends the user's sessions and opens the desk again.
    expect(codeOf(await changePassword(staleManager, 'wrong-password', 'manager-password-2'))).toBe('KER-ATH-023');
    expect((await changePassword(staleManager, TEST_USER_PASSWORD, 'manager-password-2')).data.changePassword.result).toBe(true);
    expect((await send(staleManager.cookie, 'GET', '/pmpartners')).json.errors[0].errorCode).toBe('KER-ATH-008');
    const renewed = await login('callers-manager', 'manager-password-2');
    expect((await ok(send(renewed.cookie, 'GET', '/pmpartners'))).partners).not.toHaveLength(0);
    expect((await ok(send(renewed.cookie, 'GET', validatePath))).partnerId).toBe('CALLERS-P');
    // ID authentication's clients have no password to expire.
    expect((await ok(send(await clientCookie(['ID_AUTHENTICATION'], 'ida'), 'GET', validatePath))).partnerId).toBe('CALLERS-P');
  });

  it('changePassword refuses a short, unchanged or client password and changes nothing', async () => {
    const user = await userLogin(t, 'callers-changer', ['PARTNER']);
    const before = await t.snapshot();
    expect(codeOf(await changePassword(user, TEST_USER_PASSWORD, 'short'))).toBe('KER-ATH-400');
    expect(codeOf(await changePassword(user, TEST_USER_PASSWORD, TEST_USER_PASSWORD))).toBe('KER-ATH-400');
    const machine = await t.clientToken(['PARTNER']);
    const after = await t.snapshot();
    expect(codeOf(await changePassword({ token: machine.token, cookie: {}, bearer: bearer(machine.token) }, 'any-secret', 'another-secret'))).toBe(
      'KER-ATH-400',
    );
    expect(await t.snapshot()).toEqual(after);
    expect(after.auth_user).toBe(before.auth_user);
    // The user's token still works: nothing was changed.
    expect((await ok(send(user.cookie, 'GET', '/partners/digitalcertificate'))).platformCertificate).toMatch(/BEGIN CERTIFICATE/);
  });
});
