import { generateKeyPairSync, randomUUID } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, expectRejected, TIMESTAMP } from '../support/assertions.js';
import { ADMIN_CLIENT_SECRET, ADMIN_PASSWORD, cookieHeader, envelopeOf, startTestPlatform, type TestPlatform } from '../support/platform.js';
import { refusalOf } from '../support/refusals.js';

const PWD = '/v1/authmanager/authenticate/internal/useridPwd';
const CLIENT = '/v1/authmanager/authenticate/clientidsecretkey';
const VALIDATE = '/v1/authmanager/authorize/admin/validateToken';
const INVALIDATE = '/v1/authmanager/authorize/invalidateToken';

let t: TestPlatform;
beforeAll(async () => {
  t = await startTestPlatform();
});
afterAll(async () => {
  await t?.close();
});

const login = (request: Record<string, unknown>) => t.request('POST', PWD, { body: envelopeOf(request) });
const clientLogin = (request: Record<string, unknown>) => t.request('POST', CLIENT, { body: envelopeOf(request) });
const tokenFromCookie = (setCookie: string | null) => /Authorization=Platform-Token([^;]+)/.exec(setCookie ?? '')?.[1];

describe('password login, token validation and invalidation (REST)', () => {
  it('logs the bootstrap admin in, validates, invalidates, and refuses the token afterwards with KER-ATH-008', async () => {
    const { status, headers, json } = await login({ userName: 'admin', password: ADMIN_PASSWORD, appId: 'admin' });
    expect(status).toBe(200);
    expect(json.id).toBe('platform.authentication.useridPwd');
    expect(json.version).toBe('1.0');
    expect(json.responsetime).toMatch(TIMESTAMP);
    expect(json.errors).toBeNull();
    expect(json.response).toMatchObject({ userId: 'admin', status: 'success', expiryTime: 3600, refreshExpiryTime: 86400 });
    const token: string = json.response.token;
    expect(jwt.decode(token, { complete: true })?.header.alg).toBe('RS256');
    expect(json.response.refreshToken).toEqual(expect.any(String));

    const setCookie = headers.get('set-cookie');
    expect(tokenFromCookie(setCookie)).toBe(token);
    expect(setCookie).toMatch(/Max-Age=3600/);
    expect(setCookie).toMatch(/Path=\//);
    expect(setCookie).toMatch(/Secure/);
    expect(setCookie).toMatch(/HttpOnly/);

    const valid = await t.request('GET', VALIDATE, { headers: cookieHeader(token) });
    expect(valid.json.errors).toBeNull();
    expect(valid.json.response).toMatchObject({ userId: 'admin', token, userPassword: null, name: 'Platform administrator' });
    expect(valid.json.response.role.split(',')).toContain('GLOBAL_ADMIN');

    const out = await t.request('POST', INVALIDATE, { headers: cookieHeader(token) });
    expect(out.json.id).toBe('platform.authorize.invalidatetoken');
    expect(out.json.ver).toBe('1.0');
    expect(out.json.response.message).toMatch(/invalidated/);

    expectError((await t.request('GET', VALIDATE, { headers: cookieHeader(token) })).json, 'KER-ATH-008');
    expectError((await t.request('POST', INVALIDATE, { headers: cookieHeader(token) })).json, 'KER-ATH-008');
    // the same token fails on GraphQL too
    const gql = await t.graphql('{ validateToken { userId } }', {}, { authorization: `Bearer ${token}` });
    expect(refusalOf(gql)!.code).toBe('KER-ATH-008');
  });

  it('accepts the token as the Authorization header in both forms', async () => {
    const token = await t.adminToken();
    for (const authorization of [`Platform-Token${token}`, `Bearer ${token}`]) {
      const { json } = await t.request('GET', VALIDATE, { headers: { authorization } });
      expect(json.response.userId).toBe('admin');
    }
  });

  it('gives the same answer for an unknown user and a wrong password (KER-ATH-023)', async () => {
    const wrong = await login({ userName: 'admin', password: 'wrong-password', appId: 'admin' });
    const unknown = await login({ userName: 'nobody-here', password: 'wrong-password', appId: 'admin' });
    expectError(wrong.json, 'KER-ATH-023', /^Invalid Credentials$/);
    expect(wrong.headers.get('set-cookie')).toBeNull();
    expect(unknown.json.errors).toEqual(wrong.json.errors);
  });

  it('refuses an unknown appId with KER-ATH-026 naming the realm, changing nothing', async () => {
    await expectRejected(t, () => login({ userName: 'admin', password: ADMIN_PASSWORD, appId: 'no-such-app' }), 'KER-ATH-026', /no-such-app/);
    await expectRejected(
      t,
      () => clientLogin({ clientId: 'admin-client', secretKey: ADMIN_CLIENT_SECRET, appId: 'no-such-app' }),
      'KER-ATH-026',
      /no-such-app/,
    );
  });

  it('rejects bad input at the edge with the documented codes and changes nothing', async () => {
    await expectRejected(t, () => login({ password: ADMIN_PASSWORD, appId: 'admin' }), 'KER-ATH-003', /userName is required/);
    await expectRejected(t, () => login({ userName: '  ', password: ADMIN_PASSWORD, appId: 'admin' }), 'KER-ATH-003');
    await expectRejected(t, () => login({ userName: 42, password: ADMIN_PASSWORD, appId: 'admin' }), 'KER-ATH-003', /userName is invalid/);
    await expectRejected(t, () => login({ userName: 'admin', appId: 'admin' }), 'KER-ATH-023', /password is required/);
    await expectRejected(t, () => login({ userName: 'admin', password: ['x'], appId: 'admin' }), 'KER-ATH-023', /password is invalid/);
    await expectRejected(t, () => login({ userName: 'admin', password: ADMIN_PASSWORD }), 'KER-ATH-026', /appId is required/);
    await expectRejected(t, () => login({ userName: 'admin', password: ADMIN_PASSWORD, appId: 7 }), 'KER-ATH-026');
    await expectRejected(t, () => t.request('POST', PWD, { body: { id: 'x', version: '1.0' } }), 'KER-ATH-023', /request is required/);
    await expectRejected(
      t,
      () => t.request('POST', PWD, { body: envelopeOf({ userName: 'admin', password: 'x', appId: 'admin' }, { requesttime: 'yesterday' }) }),
      'KER-ATH-023',
      /requesttime/,
    );
    await expectRejected(t, () => t.request('POST', PWD, { raw: '{"request": {"userName": "admin",' }), 'KER-ATH-023', /not valid JSON/);
    await expectRejected(t, () => t.request('POST', PWD, { raw: '[1,2]' }), 'KER-ATH-023', /envelope/);
    await expectRejected(t, () => clientLogin({ clientId: 'admin-client', appId: 'admin' }), '500', /secretKey is required/);
    await expectRejected(t, () => clientLogin({ clientId: { a: 1 }, secretKey: 'x', appId: 'admin' }), '500', /clientId is invalid/);
  });

  it('refuses a 2 MB body with a clean envelope and changes nothing', async () => {
    const big = 'x'.repeat(2 * 1024 * 1024);
    await expectRejected(t, () => login({ userName: 'admin', password: big, appId: 'admin' }), 'KER-ATH-023', /exceeds 1048576 bytes/);
    await expectRejected(t, () => clientLogin({ clientId: big, secretKey: 'x', appId: 'admin' }), '500', /exceeds/);
  });

  it('tells an empty cookie header (KER-ATH-006) from a missing token (KER-ATH-007) and a bad token (KER-ATH-401)', async () => {
    await expectRejected(t, () => t.request('GET', VALIDATE), 'KER-ATH-006', /Cookies are empty/);
    await expectRejected(t, () => t.request('POST', INVALIDATE), 'KER-ATH-006');
    await expectRejected(t, () => t.request('GET', VALIDATE, { headers: { cookie: 'theme=dark' } }), 'KER-ATH-007');
    await expectRejected(t, () => t.request('POST', INVALIDATE, { headers: { cookie: 'theme=dark' } }), 'KER-ATH-007');
    await expectRejected(t, () => t.request('GET', VALIDATE, { headers: cookieHeader('not-a-jwt') }), 'KER-ATH-401');
    const foreignKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
    const forged = jwt.sign({ sub: 'admin', jti: randomUUID(), typ: 'access', sty: 'user', appId: 'admin', roles: ['GLOBAL_ADMIN'] }, foreignKey, {
      algorithm: 'RS256',
      issuer: 'identity-platform',
      audience: 'identity-platform',
      expiresIn: 60,
    });
    await expectRejected(t, () => t.request('GET', VALIDATE, { headers: cookieHeader(forged) }), 'KER-ATH-401');
    const unsigned = jwt.sign({ sub: 'admin', jti: randomUUID(), typ: 'access' }, '', { algorithm: 'none' });
    await expectRejected(t, () => t.request('GET', VALIDATE, { headers: cookieHeader(unsigned) }), 'KER-ATH-401');
  });

  it('refuses an expired token with KER-ATH-401', async () => {
    const token = await t.adminToken();
    t.clock.advance(3601_000);
    try {
      await expectRejected(t, () => t.request('GET', VALIDATE, { headers: cookieHeader(token) }), 'KER-ATH-401');
    } finally {
      t.clock.advance(-3601_000);
    }
  });

  it('does not accept a refresh token as an access token', async () => {
    const { json } = await login({ userName: 'admin', password: ADMIN_PASSWORD, appId: 'admin' });
    expectError((await t.request('GET', VALIDATE, { headers: cookieHeader(json.response.refreshToken) })).json, 'KER-ATH-401');
  });
});

describe('client id and secret key login (REST)', () => {
  it('sets the token cookie and answers Success', async () => {
    const { json, headers } = await clientLogin({ clientId: 'admin-client', secretKey: ADMIN_CLIENT_SECRET, appId: 'registrationprocessor' });
    expect(json.errors).toBeNull();
    expect(json.response).toEqual({ status: 'Success', message: expect.any(String) });
    const token = tokenFromCookie(headers.get('set-cookie'));
    expect(token).toBeTruthy();
    const valid = await t.request('GET', VALIDATE, { headers: cookieHeader(token!) });
    expect(valid.json.response).toMatchObject({ userId: 'admin-client', mobile: null });
  });

  it('answers code 500 with a 401 Unauthorized message for wrong credentials', async () => {
    for (const request of [
      { clientId: 'admin-client', secretKey: 'wrong', appId: 'admin' },
      { clientId: 'no-such-client', secretKey: ADMIN_CLIENT_SECRET, appId: 'admin' },
    ]) {
      const { json, headers } = await clientLogin(request);
      expectError(json, '500', /401 Unauthorized/);
      expect(headers.get('set-cookie')).toBeNull();
    }
  });
});

describe('envelopes of the REST layer', () => {
  it('answers an unknown path with 404 and an envelope', async () => {
    const { status, json } = await t.request('GET', '/v1/nothing/here');
    expect(status).toBe(404);
    expectError(json, 'KER-REQ-404', /GET \/v1\/nothing\/here/);
  });

  it('never leaks a password, token or secret into an error message', async () => {
    const { json } = await login({ userName: 'admin', password: 'my-secret-attempt', appId: 'admin' });
    expect(JSON.stringify(json)).not.toContain('my-secret-attempt');
  });
});
