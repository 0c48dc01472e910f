// A portal in a browser: CORS for the origins PLATFORM_CORS_ORIGINS lists (none by default), the
// GraphQL login, refresh and logout setting and clearing the same HttpOnly cookies as REST, and
// Apollo's CSRF prevention refusing a simple cross-site POST to /graphql before anything runs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, startTestPlatform, type TestPlatform } from '../support/platform.js';

const PORTAL = 'https://portal.example.gov';
const LOGIN = `mutation { loginWithPassword(input: { userName: "admin", password: "${ADMIN_PASSWORD}", appId: "admin" }) { passwordLogin { userId } userErrors { code } } }`;
const REFRESH = 'mutation { refreshToken(input: { appId: "admin" }) { refreshedTokens { expiryTime } userErrors { code } } }';
const LOGOUT = 'mutation { invalidateToken { tokenInvalidation { message } userErrors { code } } }';
let t: TestPlatform;
let closed: TestPlatform;

beforeAll(async () => {
  [t, closed] = await Promise.all([startTestPlatform({ PLATFORM_CORS_ORIGINS: `${PORTAL}, https://admin.example.gov` }), startTestPlatform({})]);
});
afterAll(async () => {
  await Promise.all([t?.close(), closed?.close()]);
});

const preflight = (platform: TestPlatform, origin: string, path = '/graphql') =>
  fetch(`${platform.baseUrl}${path}`, {
    method: 'OPTIONS',
    headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type,apollo-require-preflight' },
  });

/** A GraphQL call as a browser page on the portal makes it: JSON, its origin, the cookies it holds. */
const graphql = (query: string, cookie?: string, headers: Record<string, string> = { 'content-type': 'application/json' }) =>
  fetch(`${t.baseUrl}/graphql`, { method: 'POST', headers: { ...headers, origin: PORTAL, ...(cookie && { cookie }) }, body: JSON.stringify({ query }) });

/** The Cookie header a browser would send back to /graphql from these Set-Cookie lines. */
const cookieOf = (setCookies: string[]) => setCookies.map((line) => line.split(';')[0]).join('; ');

describe('a portal on another origin', () => {
  it('gets CORS answers for a listed origin only, preflights and calls alike, REST and GraphQL', async () => {
    const allowed = await preflight(t, PORTAL);
    expect(allowed.status).toBe(204);
    expect(allowed.headers.get('access-control-allow-origin')).toBe(PORTAL);
    expect(allowed.headers.get('access-control-allow-credentials')).toBe('true');
    expect(allowed.headers.get('access-control-allow-headers')).toContain('apollo-require-preflight');
    expect((await preflight(t, PORTAL, '/v1/authmanager/authenticate/internal/useridPwd')).headers.get('access-control-allow-origin')).toBe(PORTAL);
    for (const stranger of ['https://evil.example', 'https://portal.example.gov.evil.example', 'null']) {
      expect((await preflight(t, stranger)).headers.get('access-control-allow-origin')).toBeNull();
    }
    const call = await fetch(`${t.baseUrl}/v1/authmanager/authorize/admin/validateToken`, { headers: { origin: PORTAL } });
    expect(call.headers.get('access-control-allow-origin')).toBe(PORTAL);
    expect(call.headers.get('access-control-expose-headers')).toContain('x-request-id');
    // none listed (the default): no origin but the platform's own may read an answer
    expect((await preflight(closed, PORTAL)).headers.get('access-control-allow-origin')).toBeNull();
  });

  it('signs in over GraphQL with the HttpOnly cookies REST sets, is then known by the cookie alone, refreshes by it and logs out', async () => {
    const login = await graphql(LOGIN);
    const signedIn = await login.json();
    expect(signedIn.errors, JSON.stringify(signedIn.errors)).toBeUndefined();
    expect(signedIn.data.loginWithPassword).toEqual({ passwordLogin: { userId: 'admin' }, userErrors: [] });
    const issued = login.headers.getSetCookie();
    expect(issued).toEqual([
      expect.stringMatching(/^Authorization=Platform-Token[\w-]+\.[\w-]+\.[\w-]+; Max-Age=\d+; Path=\/; Secure; HttpOnly; SameSite=Lax$/),
      expect.stringMatching(/^refresh_token=[^;]+; Max-Age=\d+; Path=\/graphql; Secure; HttpOnly; SameSite=Strict$/),
    ]);
    const cookie = cookieOf(issued);
    expect((await (await graphql('{ validateToken { userId } }', cookie)).json()).data.validateToken.userId).toBe('admin');

    // the refresh token comes from its cookie: the page never holds a token
    const refreshed = await graphql(REFRESH, cookie);
    expect((await refreshed.json()).data.refreshToken.userErrors).toEqual([]);
    const renewed = cookieOf(refreshed.headers.getSetCookie());
    expect(renewed).toMatch(/^Authorization=Platform-Token.+; refresh_token=.+$/);
    expect(renewed).not.toBe(cookie);

    const logout = await graphql(LOGOUT, renewed);
    expect((await logout.json()).data.invalidateToken.userErrors).toEqual([]);
    expect(logout.headers.getSetCookie()).toEqual([
      'Authorization=Platform-Token; Max-Age=0; Path=/; Secure; HttpOnly; SameSite=Lax',
      'refresh_token=; Max-Age=0; Path=/graphql; Secure; HttpOnly; SameSite=Strict',
    ]);
    expect((await (await graphql('{ validateToken { userId } }', renewed)).json()).errors[0].extensions.code).toBe('KER-ATH-008');
  });

  it('refuses a simple cross-site POST to /graphql before it runs (no preflight could have been asked), the session untouched', async () => {
    const login = await graphql(LOGIN);
    const cookie = cookieOf(login.headers.getSetCookie());
    // what a form on another site can send: text/plain, no custom header
    const forged = await graphql(LOGOUT, cookie, { 'content-type': 'text/plain' });
    expect(forged.status).toBe(400);
    expect(forged.headers.getSetCookie()).toEqual([]);
    expect((await (await graphql('{ validateToken { userId } }', cookie)).json()).data.validateToken.userId).toBe('admin');
  });
});
