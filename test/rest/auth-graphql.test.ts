import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../lib/secrets.js';
import { ADMIN_CLIENT_SECRET, ADMIN_PASSWORD, bearer, cookieHeader, envelopeOf, startTestPlatform, type TestPlatform } from '../support/platform.js';
import { refusalCode as code, refusalOf } from '../support/refusals.js';

let t: TestPlatform;
beforeAll(async () => {
  t = await startTestPlatform({ PLATFORM_THROTTLE_ACCOUNT: '3', PLATFORM_THROTTLE_ADDRESS: '0' });
});
afterAll(async () => {
  await t?.close();
});

const LOGIN = `mutation Login($userName: String!, $password: String!, $appId: String!) {
  loginWithPassword(input: { userName: $userName, password: $password, appId: $appId }) { passwordLogin { token expiryTime userId status } userErrors { field code message } }
}`;

describe('the authentication manager through GraphQL', () => {
  it('logs in, validates, invalidates and then refuses the token with KER-ATH-008', async () => {
    const login = await t.graphql(LOGIN, { userName: 'admin', password: ADMIN_PASSWORD, appId: 'admin' });
    expect(login.errors).toBeUndefined();
    const token = login.data.loginWithPassword.passwordLogin.token;
    const valid = await t.graphql('{ validateToken { userId roles } }', {}, bearer(token));
    expect(valid.data.validateToken.userId).toBe('admin');
    expect(valid.data.validateToken.roles).toContain('GLOBAL_ADMIN');
    // the cookie works on GraphQL as on REST
    expect((await t.graphql('{ validateToken { userId } }', {}, cookieHeader(token))).data.validateToken.userId).toBe('admin');
    expect(
      (await t.graphql('mutation { invalidateToken { tokenInvalidation { message } userErrors { field code message } } }', {}, bearer(token))).data
        .invalidateToken.tokenInvalidation.message,
    ).toMatch(/invalidated/);
    expect(code(await t.graphql('{ validateToken { userId } }', {}, bearer(token)))).toBe('KER-ATH-008');
    // and REST agrees
    const rest = await t.request('GET', '/v1/authmanager/authorize/admin/validateToken', { headers: cookieHeader(token) });
    expect(rest.json.errors[0].errorCode).toBe('KER-ATH-008');
  });

  it('returns the same error codes as REST', async () => {
    expect(code(await t.graphql(LOGIN, { userName: 'admin', password: ADMIN_PASSWORD, appId: 'nope' }))).toBe('KER-ATH-026');
    expect(code(await t.graphql(LOGIN, { userName: '', password: ADMIN_PASSWORD, appId: 'admin' }))).toBe('KER-ATH-003');
    expect(code(await t.graphql('{ validateToken { userId } }'))).toBe('KER-ATH-006');
    expect(code(await t.graphql('{ validateToken { userId } }', {}, { cookie: 'x=y' }))).toBe('KER-ATH-007');
    expect(code(await t.graphql('{ validateToken { userId } }', {}, bearer('garbage')))).toBe('KER-ATH-401');
    const client = await t.graphql(
      'mutation { loginWithClientSecret(input: { clientId: "admin-client", secretKey: "bad", appId: "ida" }) { clientLogin { token } userErrors { field code message } } }',
    );
    expect(code(client)).toBe('500');
    const ok = await t.graphql(
      `mutation { loginWithClientSecret(input: { clientId: "admin-client", secretKey: "${ADMIN_CLIENT_SECRET}", appId: "ida" }) { clientLogin { token status } userErrors { field code message } } }`,
    );
    expect(ok.data.loginWithClientSecret.clientLogin.status).toBe('Success');
  });

  it('checks roles from the one table: KER-ATH-403 for a token without the role, KER-ATH-006 without a token', async () => {
    await t.platform.deps.prisma.user.create({
      data: { userId: 'officer1', passwordHash: await hashPassword('officer-pass'), roles: ['REGISTRATION_OFFICER'], appIds: ['registrationclient'] },
    });
    const login = await t.graphql(LOGIN, { userName: 'officer1', password: 'officer-pass', appId: 'registrationclient' });
    const officer = login.data.loginWithPassword.passwordLogin.token;
    expect(code(await t.graphql('{ authRealms }', {}, bearer(officer)))).toBe('KER-ATH-403');
    expect(code(await t.graphql('{ authRealms }'))).toBe('KER-ATH-006');
    const admin = await t.adminToken();
    expect((await t.graphql('{ authRealms }', {}, bearer(admin))).data.authRealms).toContain('registrationprocessor');
    // a user may log in only to the application ids assigned to it
    expect(code(await t.graphql(LOGIN, { userName: 'officer1', password: 'officer-pass', appId: 'admin' }))).toBe('KER-ATH-023');
  });

  it('throttles failed password logins per account, counted in the database, and lets them through after the window', async () => {
    await t.platform.deps.prisma.user.create({
      data: { userId: 'victim', passwordHash: await hashPassword('victim-pass'), roles: ['INDIVIDUAL'], appIds: ['resident'] },
    });
    for (let i = 0; i < 3; i++) expect(code(await t.graphql(LOGIN, { userName: 'victim', password: 'guess' + i, appId: 'resident' }))).toBe('KER-ATH-023');
    const blocked = await t.graphql(LOGIN, { userName: 'victim', password: 'victim-pass', appId: 'resident' });
    expect(code(blocked)).toBe('KER-ATH-023');
    expect(refusalOf(blocked)!.message).toMatch(/too many attempts/);
    t.clock.advance(15 * 60_000 + 1000);
    const after = await t.graphql(LOGIN, { userName: 'victim', password: 'victim-pass', appId: 'resident' });
    expect(after.data.loginWithPassword.passwordLogin.userId).toBe('victim');
  });
});

describe('throttling per client address', () => {
  it('refuses logins beyond the per-minute limit of one address', async () => {
    const limited = await startTestPlatform({ PLATFORM_THROTTLE_ADDRESS: '2', PLATFORM_THROTTLE_ACCOUNT: '0' });
    try {
      const send = () =>
        limited.request('POST', '/v1/authmanager/authenticate/internal/useridPwd', {
          body: envelopeOf({ userName: 'admin', password: ADMIN_PASSWORD, appId: 'admin' }),
        });
      expect((await send()).json.response.token).toBeTruthy();
      expect((await send()).json.response.token).toBeTruthy();
      expect((await send()).json.errors[0].message).toMatch(/too many attempts/);
      limited.clock.advance(61_000);
      expect((await send()).json.response.token).toBeTruthy();
    } finally {
      await limited.close();
    }
  });
});
