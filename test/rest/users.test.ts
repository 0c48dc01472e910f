import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, cookieHeader, envelopeOf, startTestPlatform, type TestPlatform } from '../support/platform.js';
import { refusalCode as code } from '../support/refusals.js';

let t: TestPlatform;
let admin: Record<string, string>;
beforeAll(async () => {
  t = await startTestPlatform();
  admin = bearer(await t.adminToken());
});
afterAll(async () => {
  await t?.close();
});

const passwordLogin = (userName: string, password: string, appId: string) =>
  t.graphql(
    'mutation($u: String!, $p: String!, $a: String!) { loginWithPassword(input: { userName: $u, password: $p, appId: $a }) { passwordLogin { token } userErrors { field code message } } }',
    {
      u: userName,
      p: password,
      a: appId,
    },
  );
const validate = (token: string) => t.request('GET', '/v1/authmanager/authorize/admin/validateToken', { headers: cookieHeader(token) });

describe('users and clients administration (GraphQL, admin only)', () => {
  it('creates a user who can log in with the assigned roles and application ids, and never returns the hash', async () => {
    const created = await t.graphql(
      `mutation { createUser(input: {userId: "clerk1", name: "Clerk One", mail: "clerk1@example.org", mobile: "9123456789",
      password: "clerk-password-1", roles: [REGISTRATION_OFFICER, REGISTRATION_SUPERVISOR], appIds: ["registrationclient"]}) { user { userId roles appIds hasPassword isLocked langCode } userErrors { field code message } } }`,
      {},
      admin,
    );
    expect(created.data.createUser.user).toEqual({
      userId: 'clerk1',
      roles: ['REGISTRATION_OFFICER', 'REGISTRATION_SUPERVISOR'],
      appIds: ['registrationclient'],
      hasPassword: true,
      isLocked: false,
      langCode: 'eng',
    });
    const login = await passwordLogin('clerk1', 'clerk-password-1', 'registrationclient');
    expect((await validate(login.data.loginWithPassword.passwordLogin.token)).json.response.role).toBe('REGISTRATION_OFFICER,REGISTRATION_SUPERVISOR');
    expect(code(await passwordLogin('clerk1', 'clerk-password-1', 'admin'))).toBe('KER-ATH-023');
    const listed = await t.graphql('{ users(first: 50) { edges { node { userId } } } user(userId: "clerk1") { name mail mobile } }', {}, admin);
    expect(listed.data.users.edges.map((e: any) => e.node.userId)).toEqual(expect.arrayContaining(['admin', 'clerk1']));
    expect(listed.data.user).toEqual({ name: 'Clerk One', mail: 'clerk1@example.org', mobile: '9123456789' });
    expect(JSON.stringify(listed)).not.toMatch(/scrypt/);
  });

  it('changes roles, revoking the tokens issued with the old ones', async () => {
    const before = (await passwordLogin('clerk1', 'clerk-password-1', 'registrationclient')).data.loginWithPassword.passwordLogin.token;
    const updated = await t.graphql(
      'mutation { updateUser(input: { userId: "clerk1", changes: {roles: [REGISTRATION_ADMIN], appIds: ["registrationclient", "admin"]} }) { user { roles appIds } userErrors { field code message } } }',
      {},
      admin,
    );
    expect(updated.data.updateUser.user).toEqual({ roles: ['REGISTRATION_ADMIN'], appIds: ['registrationclient', 'admin'] });
    expect((await validate(before)).json.errors[0].errorCode).toBe('KER-ATH-008');
    const after = (await passwordLogin('clerk1', 'clerk-password-1', 'admin')).data.loginWithPassword.passwordLogin.token;
    expect((await validate(after)).json.response.role).toBe('REGISTRATION_ADMIN');
  });

  it('resets a password: the old one stops working and live tokens are revoked', async () => {
    const token = (await passwordLogin('clerk1', 'clerk-password-1', 'admin')).data.loginWithPassword.passwordLogin.token;
    expect(
      code(
        await t.graphql(
          'mutation { resetPassword(input: { userId: "clerk1", password: "new-clerk-password" }) { user { userId } userErrors { field code message } } }',
          {},
          admin,
        ),
      ),
    ).toBeUndefined();
    expect((await validate(token)).json.errors[0].errorCode).toBe('KER-ATH-008');
    expect(code(await passwordLogin('clerk1', 'clerk-password-1', 'admin'))).toBe('KER-ATH-023');
    expect((await passwordLogin('clerk1', 'new-clerk-password', 'admin')).data.loginWithPassword.passwordLogin.token).toBeTruthy();
  });

  it('locks and unlocks a user', async () => {
    const token = (await passwordLogin('clerk1', 'new-clerk-password', 'admin')).data.loginWithPassword.passwordLogin.token;
    expect(
      (await t.graphql('mutation { lockUser(input: { userId: "clerk1" }) { user { isLocked } userErrors { field code message } } }', {}, admin)).data.lockUser
        .user.isLocked,
    ).toBe(true);
    expect((await validate(token)).json.errors[0].errorCode).toBe('KER-ATH-008');
    expect(code(await passwordLogin('clerk1', 'new-clerk-password', 'admin'))).toBe('KER-ATH-023');
    await t.graphql('mutation { unlockUser(input: { userId: "clerk1" }) { user { isLocked } userErrors { field code message } } }', {}, admin);
    expect((await passwordLogin('clerk1', 'new-clerk-password', 'admin')).data.loginWithPassword.passwordLogin.token).toBeTruthy();
  });

  it('creates a client whose secret is shown once, and rotates it', async () => {
    const created = await t.graphql(
      'mutation { createClient(input: {clientId: "regproc-client", roles: [REGISTRATION_PROCESSOR], appIds: ["registrationprocessor"]}) { clientCredentials { clientId secretKey client { clientId roles } } userErrors { field code message } } }',
      {},
      admin,
    );
    const { secretKey, client } = created.data.createClient.clientCredentials;
    // The payload carries the client it made.
    expect(client).toEqual({ clientId: 'regproc-client', roles: ['REGISTRATION_PROCESSOR'] });
    expect(secretKey.length).toBeGreaterThanOrEqual(43);
    const clientLogin = (secret: string) =>
      t.request('POST', '/v1/authmanager/authenticate/clientidsecretkey', {
        body: envelopeOf({ clientId: 'regproc-client', secretKey: secret, appId: 'registrationprocessor' }),
      });
    expect((await clientLogin(secretKey)).json.response.status).toBe('Success');
    expect(JSON.stringify((await t.graphql('{ clients(first: 50) { edges { node { clientId roles isActive } } } }', {}, admin)).data)).not.toContain(secretKey);
    const rotated = await t.graphql(
      'mutation { rotateClientSecret(input: { clientId: "regproc-client" }) { clientCredentials { secretKey } userErrors { field code message } } }',
      {},
      admin,
    );
    expect((await clientLogin(secretKey)).json.errors[0].errorCode).toBe('500');
    expect((await clientLogin(rotated.data.rotateClientSecret.clientCredentials.secretKey)).json.response.status).toBe('Success');
    await t.graphql(
      'mutation { updateClient(input: { clientId: "regproc-client", changes: {isActive: false} }) { client { isActive } userErrors { field code message } } }',
      {},
      admin,
    );
    expect((await clientLogin(rotated.data.rotateClientSecret.clientCredentials.secretKey)).json.errors[0].errorCode).toBe('500');
  });

  it('refuses bad input with a clear code and changes nothing', async () => {
    const cases: [string, string][] = [
      ['mutation { createUser(input: {userId: "x1", roles: [EMPEROR]}) { user { userId } userErrors { field code message } } }', 'GRAPHQL_VALIDATION_FAILED'],
      ['mutation { createUser(input: {userId: "x1", appIds: ["nowhere"]}) { user { userId } userErrors { field code message } } }', 'KER-ATH-400'],
      ['mutation { createUser(input: {userId: "x1", mail: "not-mail"}) { user { userId } userErrors { field code message } } }', 'KER-ATH-400'],
      ['mutation { createUser(input: {userId: "x1", password: "short"}) { user { userId } userErrors { field code message } } }', 'KER-ATH-400'],
      ['mutation { createUser(input: {userId: "has space"}) { user { userId } userErrors { field code message } } }', 'KER-ATH-400'],
      ['mutation { createUser(input: {userId: "admin"}) { user { userId } userErrors { field code message } } }', 'KER-ATH-409'],
      [
        'mutation { resetPassword(input: { userId: "ghost", password: "long-enough-1" }) { user { userId } userErrors { field code message } } }',
        'KER-ATH-003',
      ],
      ['mutation { lockUser(input: { userId: "ghost" }) { user { userId } userErrors { field code message } } }', 'KER-ATH-003'],
      ['mutation { rotateClientSecret(input: { clientId: "ghost" }) { clientCredentials { secretKey } userErrors { field code message } } }', 'KER-ATH-003'],
      ['mutation { createUser(input: {}) { user { userId } userErrors { field code message } } }', 'GRAPHQL_VALIDATION_FAILED'],
    ];
    for (const [query, expected] of cases) {
      const before = await t.snapshot();
      expect(code(await t.graphql(query, {}, admin)), query).toBe(expected);
      expect(await t.snapshot()).toEqual(before);
    }
  });

  it('is admin only: KER-ATH-403 for other roles, KER-ATH-006 without a token', async () => {
    const token = (await passwordLogin('clerk1', 'new-clerk-password', 'admin')).data.loginWithPassword.passwordLogin.token;
    for (const query of [
      '{ users { totalCount } }',
      'mutation { createUser(input: {userId: "sneaky"}) { user { userId } userErrors { field code message } } }',
      'mutation { rotateClientSecret(input: { clientId: "admin-client" }) { clientCredentials { secretKey } userErrors { field code message } } }',
    ]) {
      expect(code(await t.graphql(query, {}, bearer(token)))).toBe('KER-ATH-403');
      expect(code(await t.graphql(query))).toBe('KER-ATH-006');
    }
  });
});
