// Two instances on one PostgreSQL database: a token revoked on one is refused by
// the other within a second, each checking tokens from memory kept current by
// LISTEN/NOTIFY, and still when the listening connection is killed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { openDatabase, type Database } from '../../lib/db/client.js';
import { cookieHeader, envelopeOf, startTestPlatform, type TestPlatform } from '../support/platform.js';
import { createTestDatabase, withAdminClient } from '../support/postgres.js';
import { waitFor } from '../support/wait.js';

describe('revocation across instances', () => {
  let server: Awaited<ReturnType<typeof createTestDatabase>>;
  let databases: Database[];
  let a: TestPlatform;
  let b: TestPlatform;
  let admin: Record<string, string>;

  beforeAll(async () => {
    server = await createTestDatabase(inject('postgresTemplate'));
    // Two instances: each its own pool and its own listening connection.
    databases = [await openDatabase({ url: server.url, migrate: false }), await openDatabase({ url: server.url, migrate: false })];
    a = await startTestPlatform({}, { database: databases[0]! });
    b = await startTestPlatform({}, { database: databases[1]! });
    admin = cookieHeader(await a.adminToken());
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    for (const database of databases ?? []) await database.close();
    await server?.drop();
  });

  const validateOn = async (instance: TestPlatform, token: string) =>
    (await instance.request('GET', '/v1/authmanager/authorize/admin/validateToken', { headers: cookieHeader(token) })).json;
  /** B refuses the token within a second of its revocation on A. */
  const refusedByBWithinASecond = (token: string) =>
    waitFor(async () => (await validateOn(b, token)).errors?.[0]?.errorCode === 'KER-ATH-008', 'B to refuse the token', 1000);

  async function userToken(userId: string): Promise<string> {
    await a.graphql(
      'mutation($u: ID!) { createUser(input: {userId: $u, password: "Password-for-tests-1", roles: [RESIDENT], appIds: ["resident"]}) { user { userId } userErrors { field code message } } }',
      { u: userId },
      admin,
    );
    const { json } = await a.request('POST', '/v1/authmanager/authenticate/internal/useridPwd', {
      body: envelopeOf({ userName: userId, password: 'Password-for-tests-1', appId: 'resident' }),
    });
    return json.response.token as string;
  }

  it('checks tokens from memory on both instances', () => {
    expect(a.platform.deps.tokens.revocations.isLive).toBe(true);
    expect(b.platform.deps.tokens.revocations.isLive).toBe(true);
  });

  it('refuses on B, within a second, a token revoked on A by each path that revokes', async () => {
    const paths: [string, (token: string, userId: string) => Promise<unknown>][] = [
      ['invalidateToken', (token) => a.request('POST', '/v1/authmanager/authorize/invalidateToken', { headers: cookieHeader(token) })],
      [
        'changed roles',
        (_t, userId) =>
          a.graphql(
            'mutation($u: ID!) { updateUser(input: { userId: $u, changes: {roles: [INDIVIDUAL]} }) { user { userId } userErrors { field code message } } }',
            { u: userId },
            admin,
          ),
      ],
      [
        'password reset',
        (_t, userId) =>
          a.graphql(
            'mutation($u: ID!) { resetPassword(input: { userId: $u, password: "Another-password-2" }) { user { userId } userErrors { field code message } } }',
            { u: userId },
            admin,
          ),
      ],
      [
        'lock',
        (_t, userId) =>
          a.graphql('mutation($u: ID!) { lockUser(input: { userId: $u }) { user { userId } userErrors { field code message } } }', { u: userId }, admin),
      ],
      [
        'revokeSession',
        async (_t, userId) => {
          const sessions = await a.graphql(
            'query($u: String!) { sessions(first: 5, filter: {subject: $u, status: ACTIVE}) { edges { node { id } } } }',
            { u: userId },
            admin,
          );
          expect(sessions.data.sessions.edges).toHaveLength(1);
          return a.graphql(
            'mutation($id: ID!) { revokeSession(input: { id: $id }) { session { id status } userErrors { field code message } } }',
            { id: sessions.data.sessions.edges[0].node.id },
            admin,
          );
        },
      ],
    ];
    for (const [name, revoke] of paths) {
      const userId = `revoked-by-${name.replace(/\W/g, '-').toLowerCase()}`;
      const token = await userToken(userId);
      expect((await validateOn(b, token)).response.userId, name).toBe(userId);
      await revoke(token, userId);
      await refusedByBWithinASecond(token);
    }
  });

  it('refuses on B a client token whose secret was rotated on A', async () => {
    const client = await a.clientToken(['ID_AUTHENTICATION']);
    expect((await validateOn(b, client.token)).response.userId).toBe(client.clientId);
    await a.graphql(
      'mutation($c: ID!) { rotateClientSecret(input: { clientId: $c }) { clientCredentials { clientId } userErrors { field code message } } }',
      { c: client.clientId },
      admin,
    );
    await refusedByBWithinASecond(client.token);
  });

  it("still refuses a token revoked on A after B's listening connection was killed (pg_terminate_backend)", async () => {
    const token = await userToken('revoked-while-b-is-deaf');
    expect((await validateOn(b, token)).response.userId).toBe('revoked-while-b-is-deaf');
    const name = b.platform.deps.tokens.revocations.connectionName;
    expect(name).toBeTruthy();
    const killed = await withAdminClient((client) =>
      client.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1', [name]),
    );
    expect(killed.rowCount).toBe(1);
    await a.request('POST', '/v1/authmanager/authorize/invalidateToken', { headers: cookieHeader(token) });
    await refusedByBWithinASecond(token);
    // and B is back on its notifications once it has listened again and reloaded
    await waitFor(() => b.platform.deps.tokens.revocations.isLive, 'B to listen again', 10_000);
    const later = await userToken('revoked-after-b-is-back');
    await a.request('POST', '/v1/authmanager/authorize/invalidateToken', { headers: cookieHeader(later) });
    await refusedByBWithinASecond(later);
  });
});
