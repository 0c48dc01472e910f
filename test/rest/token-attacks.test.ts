// A bad token is never better than none: on every REST route that a missing token is refused on,
// a tampered token, an unsigned one (alg none), one signed HS256 with the platform's public key, one
// signed by the platform's own key for another audience or already expired, and an invalidated one
// are each refused with an authentication code, before the route reads its input, and nothing
// changes; so on every guarded GraphQL root field, called with arguments the graph takes.
import type { GraphQLSchema } from 'graphql';
import { beforeAll, describe, expect, it } from 'vitest';
import { REST_ROUTES, ROLE_TABLE } from '../../gateway/components.js';
import { cookieHeader, type TestPlatform, useTestPlatform } from '../support/platform.js';
import { forgeTokens, guardedCalls, needsToken, servedSchema } from '../support/token-attacks.js';

let t: TestPlatform;
useTestPlatform({}, (platform) => {
  t = platform;
});

/** Every route whose root fields all need a good token: a request without one is refused there. */
const guarded = REST_ROUTES.filter((route) => route.rootFields.every((field) => needsToken(ROLE_TABLE, field)));
const pathOf = (path: string) => path.replace(/\{[^}]+\}/g, 'x1');

let attacks: Record<string, string>;
let control: string;
let schema: GraphQLSchema;
beforeAll(async () => {
  ({ attacks, control } = await forgeTokens(t));
  schema = await servedSchema(t, await t.adminToken());
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
});

describe('tokens an attacker makes, on every guarded GraphQL root field', () => {
  it('calls each guarded field with arguments the graph takes: without a token, each is refused as unauthenticated', async () => {
    const calls = guardedCalls(schema, ROLE_TABLE);
    expect(calls.length).toBeGreaterThan(200);
    const wrong: string[] = [];
    for (const call of calls) {
      const answer = await t.graphql(call.query, call.variables);
      const code = answer.errors?.[0]?.extensions?.code;
      if (code !== 'KER-ATH-006') wrong.push(`${call.operation} → ${code} ${answer.errors?.[0]?.message ?? ''}`);
    }
    expect(wrong).toEqual([]);
  });

  it('takes the control on a guarded field', async () => {
    const answer = await t.graphql('{ validateToken { userId } }', {}, cookieHeader(control));
    expect(answer.data.validateToken.userId).toBe('admin');
  });

  it('refuses each forged or spent token on each field with an authentication code, answering nothing and changing nothing', async () => {
    const before = await t.snapshot();
    const accepted: string[] = [];
    const calls = guardedCalls(schema, ROLE_TABLE);
    for (const [name, token] of Object.entries(attacks))
      for (const call of calls) {
        const answer = await t.graphql(call.query, call.variables, cookieHeader(token));
        const code = answer.errors?.[0]?.extensions?.code;
        const answered = Object.values(answer.data ?? {}).some((value) => value !== null);
        if (!/^KER-ATH-(401|008)$/.test(code ?? '') || answered) accepted.push(`${name}: ${call.operation} → ${code}`);
      }
    expect(accepted).toEqual([]);
    expect(await t.snapshot()).toEqual(before);
  });
});
