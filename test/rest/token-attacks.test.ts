// A bad token is never better than none: on every REST route that a missing token is refused on,
// a tampered token, an unsigned one (alg none), one signed HS256 with the platform's public key, one
// signed by the platform's own key for another audience, an expired one and an invalidated one are
// each refused with an authentication code, before the route reads its input, and nothing changes.
import { createHmac, createPublicKey, randomUUID } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { beforeAll, describe, expect, it } from 'vitest';
import { REST_ROUTES, ROLE_TABLE } from '../../gateway/components.js';
import { SIGNING_KEY_PURPOSE } from '../../lib/tokens/signing-keys.js';
import { cookieHeader, type TestPlatform, useTestPlatform } from '../support/platform.js';

let t: TestPlatform;
useTestPlatform({}, (platform) => {
  t = platform;
});

const INVALIDATE = '/v1/authmanager/authorize/invalidateToken';
const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const claimsOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as Record<string, unknown>;

/** Every route whose root fields are all guarded: a request without a token is refused there. */
const guarded = REST_ROUTES.filter((route) => route.rootFields.every((field) => ROLE_TABLE[field] && ROLE_TABLE[field].kind !== 'public'));
const pathOf = (path: string) => path.replace(/\{[^}]+\}/g, 'x1');

let attacks: Record<string, string>;
let control: string;
beforeAll(async () => {
  const token = await t.adminToken();
  const claims = claimsOf(token);
  const [header, , signature] = token.split('.');
  // The platform's public key as its JWKS publishes it, as PEM text: the "secret" of an HS256 confusion attack.
  const jwks = (await t.request('GET', '/.well-known/jwks.json')).json as { keys: Record<string, unknown>[] };
  const publicPem = createPublicKey({ key: jwks.keys[0]! as never, format: 'jwk' })
    .export({ type: 'spki', format: 'pem' })
    .toString();
  const hsHeader = base64url({ alg: 'HS256', typ: 'JWT' });
  const hsPayload = base64url({ ...claims, jti: randomUUID() });
  const hmac = createHmac('sha256', publicPem).update(`${hsHeader}.${hsPayload}`).digest('base64url');
  // Signed by the platform's own active key (an insider with the key), for another audience.
  const row = await t.platform.deps.prisma.signingKey.findFirstOrThrow({ where: { active: true } });
  const privatePem = t.platform.deps.masterKey.unwrap(row.privateKey, SIGNING_KEY_PURPOSE).toString('utf8');
  const { aud: _aud, iss: _iss, exp: _exp, iat: _iat, ...rest } = claims;
  const signedFor = (audience: string) =>
    jwt.sign({ ...rest, jti: randomUUID() }, privatePem, { algorithm: 'RS256', keyid: row.id, issuer: String(claims.iss), audience, expiresIn: 600 });
  const otherAudience = signedFor('another-service');
  // The control: the same signing for the platform's own audience is taken, so only the audience differs.
  control = signedFor(String(claims.aud));
  const invalidated = await t.adminToken();
  await t.request('POST', INVALIDATE, { headers: cookieHeader(invalidated) });
  attacks = {
    tampered: `${header}.${base64url({ ...claims, sub: 'someone-else', roles: ['GLOBAL_ADMIN', 'ID_REPOSITORY'] })}.${signature}`,
    'alg none': `${base64url({ alg: 'none', typ: 'JWT' })}.${base64url(claims)}.`,
    'HS256 with the public key': `${hsHeader}.${hsPayload}.${hmac}`,
    'another audience': otherAudience,
    invalidated,
  };
});

/** One request with a token as the route's callers send it (the cookie); the code it is answered with. */
async function codeOf(route: (typeof guarded)[number], token: string | undefined): Promise<{ code: string | undefined; response: unknown }> {
  const headers = token ? cookieHeader(token) : {};
  const body = ['post', 'put', 'patch'].includes(route.method) ? { id: 'x', version: 'v1', requesttime: new Date().toISOString(), request: {} } : undefined;
  const answer = await t.request(route.method.toUpperCase(), pathOf(route.path), { body, headers });
  const json = answer.json as { errors?: { errorCode?: string }[] | null; response?: unknown } | null;
  return { code: json?.errors?.[0]?.errorCode, response: json?.response ?? null };
}

describe('tokens an attacker makes, on every guarded REST route', () => {
  it('finds the guarded routes: well over a hundred, each refusing a request without a token', async () => {
    expect(guarded.length).toBeGreaterThan(150);
    for (const route of guarded) expect((await codeOf(route, undefined)).code, `${route.method} ${route.path}`).toMatch(/^KER-ATH-/);
  });

  it('takes the control: the platform key and the platform audience', async () => {
    const valid = await t.request('GET', '/v1/authmanager/authorize/admin/validateToken', { headers: cookieHeader(control) });
    expect(valid.json.response).toMatchObject({ userId: 'admin' });
  });

  it('refuses each forged or spent token on each route with an authentication code, answering nothing and changing nothing', async () => {
    const before = await t.snapshot();
    const accepted: string[] = [];
    for (const [name, token] of Object.entries(attacks))
      for (const route of guarded) {
        const { code, response } = await codeOf(route, token);
        if (!/^KER-ATH-(401|008)$/.test(code ?? '') || response !== null) accepted.push(`${name}: ${route.method} ${route.path} → ${code}`);
      }
    expect(accepted).toEqual([]);
    expect(await t.snapshot()).toEqual(before);
  });

  it('refuses an expired token on each route', async () => {
    const token = await t.adminToken();
    t.clock.advance(2 * 3600_000);
    try {
      const accepted = [];
      for (const route of guarded) {
        const { code } = await codeOf(route, token);
        if (!/^KER-ATH-401$/.test(code ?? '')) accepted.push(`${route.method} ${route.path} → ${code}`);
      }
      expect(accepted).toEqual([]);
    } finally {
      t.clock.advance(-2 * 3600_000);
    }
  });
});
