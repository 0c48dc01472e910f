// MOSIP's refreshToken/{appId}: new tokens in the same session, the refresh token rotated,
// and a refresh token presented twice revoking its whole session.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, cookieHeader, envelopeOf, startTestPlatform, tokenOfCookie, type TestPlatform } from '../support/platform.js';
import { refusalOf } from '../support/refusals.js';

let t: TestPlatform;
beforeAll(async () => {
  t = await startTestPlatform({ PLATFORM_TOKEN_LIFE_SECONDS: '60', PLATFORM_REFRESH_TOKEN_LIFE_SECONDS: '3600' });
});
afterAll(async () => {
  await t?.close();
});

const refreshCookieOf = (setCookie: string) => /refresh_token=([^;]+)/.exec(setCookie)?.[1] ?? '';

async function login(): Promise<{ token: string; refresh: string; setCookie: string }> {
  const { json, headers } = await t.request('POST', '/v1/authmanager/authenticate/internal/useridPwd', {
    body: envelopeOf({ userName: 'admin', password: ADMIN_PASSWORD, appId: 'admin' }),
  });
  const setCookie = headers.get('set-cookie') ?? '';
  return { token: json.response.token, refresh: json.response.refreshToken, setCookie };
}

/** A refresh as a browser sends it: the refresh token in its cookie, no body. */
const refreshWithCookie = (refresh: string, appId = 'admin') =>
  t.request('POST', `/v1/authmanager/authorize/refreshToken/${appId}`, { headers: { cookie: `refresh_token=${refresh}` } });
const validate = (token: string) => t.request('GET', '/v1/authmanager/authorize/admin/validateToken', { headers: cookieHeader(token) });

describe('POST /v1/authmanager/authorize/refreshToken/{appId}', () => {
  it('sets the refresh token as an HttpOnly cookie on password login, sent only to the refresh path', async () => {
    const { refresh, setCookie } = await login();
    expect(refreshCookieOf(setCookie)).toBe(refresh);
    expect(setCookie).toMatch(/refresh_token=[^;]+; Max-Age=3600; Path=\/v1\/authmanager\/authorize\/refreshToken; Secure; HttpOnly; SameSite=Strict/);
  });

  it('after the access token has expired, answers new tokens and cookies; the refresh token is rotated', async () => {
    const first = await login();
    t.clock.advance(61_000);
    expect((await validate(first.token)).json.errors[0].errorCode).toBe('KER-ATH-401');
    const refreshed = await refreshWithCookie(first.refresh);
    expect(refreshed.json.id).toBe('platform.authorize.refreshToken');
    expect(refreshed.json.response).toMatchObject({ status: 'success', expiryTime: 60, refreshExpiryTime: 3600 });
    const setCookie = refreshed.headers.get('set-cookie') ?? '';
    expect(tokenOfCookie(setCookie)).toBe(refreshed.json.response.token);
    expect(refreshCookieOf(setCookie)).toBe(refreshed.json.response.refreshToken);
    expect(refreshed.json.response.refreshToken).not.toBe(first.refresh);
    expect((await validate(refreshed.json.response.token)).json.response.userId).toBe('admin');
  });

  it('revokes the whole session when a refresh token is presented a second time', async () => {
    const first = await login();
    const second = (await refreshWithCookie(first.refresh)).json.response;
    // The first refresh token again: a replay. Its session ends, the tokens the honest refresh got included.
    const replay = await refreshWithCookie(first.refresh);
    expect(replay.json.errors[0]).toMatchObject({ errorCode: 'KER-ATH-401', message: expect.stringMatching(/already used/) });
    expect((await validate(second.token)).json.errors[0].errorCode).toBe('KER-ATH-008');
    expect((await validate(first.token)).json.errors[0].errorCode).toBe('KER-ATH-008');
    expect((await refreshWithCookie(second.refreshToken)).json.errors[0].errorCode).toBe('KER-ATH-008');
  });

  it('refuses a refresh token presented as an access token, and an access token presented as a refresh token', async () => {
    const { token, refresh } = await login();
    expect((await validate(refresh)).json.errors[0].errorCode).toBe('KER-ATH-401');
    expect((await refreshWithCookie(token)).json.errors[0].errorCode).toBe('KER-ATH-401');
  });

  it('refuses a refresh after logout: the session is over', async () => {
    const { token, refresh } = await login();
    await t.request('POST', '/v1/authmanager/authorize/invalidateToken', { headers: cookieHeader(token) });
    expect((await refreshWithCookie(refresh)).json.errors[0].errorCode).toBe('KER-ATH-008');
  });

  it('takes the refresh token from the request body too, and refuses another application id (KER-ATH-026) or none (KER-ATH-007)', async () => {
    const { refresh } = await login();
    expect((await refreshWithCookie(refresh, 'resident')).json.errors[0].errorCode).toBe('KER-ATH-026');
    expect((await refreshWithCookie(refresh, 'nowhere')).json.errors[0].errorCode).toBe('KER-ATH-026');
    expect((await t.request('POST', '/v1/authmanager/authorize/refreshToken/admin')).json.errors[0].errorCode).toBe('KER-ATH-007');
    const viaBody = await t.request('POST', '/v1/authmanager/authorize/refreshToken/admin', { body: envelopeOf({ refreshToken: refresh }) });
    expect(viaBody.json.response.status).toBe('success');
  });

  it('leaves no live token in a session revoked while refreshes race it', async () => {
    const admin = cookieHeader(await t.adminToken());
    for (let round = 0; round < 10; round++) {
      const { token, refresh } = await login();
      const { sid } = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as { sid: string };
      const [refreshed] = await Promise.all([
        refreshWithCookie(refresh),
        t.graphql('mutation($id: ID!) { revokeSession(input: { id: $id }) { session { status } userErrors { field code message } } }', { id: sid }, admin),
      ]);
      const now = t.clock.now();
      const live = await t.platform.deps.prisma.accessToken.count({
        where: { sessionId: sid, expiresAt: { gt: now }, OR: [{ revokedAt: null }, { revokedAt: { gt: now } }] },
      });
      expect(live, `round ${round}`).toBe(0);
      // whichever won, the refresh's answer (if any) opens nothing
      if (refreshed.json.response) expect((await validate(refreshed.json.response.token)).json.errors[0].errorCode).toBe('KER-ATH-008');
      else expect(refreshed.json.errors[0].errorCode).toBe('KER-ATH-008');
    }
  });

  it('works through GraphQL with the same rules', async () => {
    const { refresh } = await login();
    const mutation =
      'mutation($r: String) { refreshToken(input: { appId: "admin", refreshToken: $r }) { refreshedTokens { token refreshToken expiryTime } userErrors { field code message } } }';
    const first = await t.graphql(mutation, { r: refresh });
    expect(first.data.refreshToken.refreshedTokens.expiryTime).toBe(60);
    const again = await t.graphql(mutation, { r: refresh });
    expect(refusalOf(again)!.code).toBe('KER-ATH-401');
    expect((await validate(first.data.refreshToken.refreshedTokens.token)).json.errors[0].errorCode).toBe('KER-ATH-008');
  });
});
