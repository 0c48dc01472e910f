import { expect } from 'vitest';
import { bearer, cookieHeader, type TestPlatform } from './platform.js';

/** A logged-in user's credentials, as cookie and as bearer header. */
export interface Login {
  token: string;
  cookie: Record<string, string>;
  bearer: Record<string, string>;
}

export const TEST_USER_PASSWORD = 'user-password-1';

/** Creates a user with these roles (as the admin) and logs it in for `appId`. */
export async function userLogin(t: TestPlatform, userId: string, roles: string[], appId = 'partnermanagement'): Promise<Login> {
  const created = await t.graphql(
    'mutation($id: ID!, $name: String!, $roles: [Role!], $p: String!, $app: String!) { createUser(input: {userId: $id, name: $name, mail: "u@example.org", password: $p, roles: $roles, appIds: [$app]}) { user { userId } userErrors { field code message } } }',
    { id: userId, name: userId, roles, p: TEST_USER_PASSWORD, app: appId },
    bearer(await t.adminToken()),
  );
  expect(created.errors).toBeUndefined();
  expect(created.data.createUser.userErrors).toEqual([]);
  const answer = await t.graphql(
    'mutation($u: String!, $p: String!, $app: String!) { loginWithPassword(input: { userName: $u, password: $p, appId: $app }) { passwordLogin { token } userErrors { field code message } } }',
    {
      u: userId,
      p: TEST_USER_PASSWORD,
      app: appId,
    },
  );
  const token: string = answer.data.loginWithPassword.passwordLogin.token;
  return { token, cookie: cookieHeader(token), bearer: bearer(token) };
}
