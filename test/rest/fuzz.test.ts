// Hostile input on every REST route and every GraphQL mutation, as the admin (so that input reaches
// each route's checks), property-based with a fixed seed: every answer is the spec's envelope (or
// GraphQL's answer shape), never a 5xx, HTML or a stack trace, and a refused request changes no
// table's row count. FUZZ_RUNS inputs per route (`npm run test:fuzz`: 200; `npm test`: a few).
import fc from 'fast-check';
import { getNamedType, isInputObjectType, isLeafType, isListType, isNonNullType, type GraphQLInputType, type GraphQLSchema } from 'graphql';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { REST_ROUTES, ROLE_TABLE } from '../../gateway/components.js';
import { hostileBody, hostileQuery, hostileSegment, hostileValue, type HostileBody } from '../support/hostile.js';
import { cookieHeader, type TestPlatform, useTestPlatform } from '../support/platform.js';
import { servedSchema } from '../support/token-attacks.js';

const RUNS = Number(process.env.FUZZ_RUNS ?? 3);
const SEED = Number(process.env.FUZZ_SEED ?? 20261206);

let t: TestPlatform;
useTestPlatform({ PLATFORM_THROTTLE_ACCOUNT: '0', PLATFORM_THROTTLE_ADDRESS: '0' }, (platform) => {
  t = platform;
});

let token: string;
let schema: GraphQLSchema;
beforeAll(async () => {
  token = await t.adminToken();
  schema = await servedSchema(t, token);
});
// A fuzzed call may end the admin's own session (invalidateToken, revokeSession): each route starts with a live one.
beforeEach(async () => {
  const valid = await t.request('GET', '/v1/authmanager/authorize/admin/validateToken', { headers: cookieHeader(token) });
  if (valid.json?.errors) token = await t.adminToken();
});

/** What went wrong with an answer, or undefined when it is the shape a client expects. */
function faultOf(status: number, contentType: string, text: string, graph: boolean): string | undefined {
  if (status >= 500) return `status ${status}`;
  if (/^\s*</.test(text) || contentType.includes('html')) return 'HTML';
  if (/\bat .+\.(ts|js):\d+|node_modules|\/work\/|prisma\.|Invalid `/.test(text)) return 'a stack trace or driver text';
  if (!contentType.includes('json')) return status < 300 ? undefined : `a ${status} that is not JSON (${contentType})`;
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {
    return 'JSON that does not parse';
  }
  if (graph) {
    const errors = body.errors as { message?: unknown; extensions?: { code?: unknown } }[] | undefined;
    if (!('data' in body) && !errors) return 'neither data nor errors';
    if (errors?.some((error) => typeof error.message !== 'string' || typeof error.extensions?.code !== 'string')) return 'an error without message or code';
    return undefined;
  }
  if (!('errors' in body)) return status < 300 ? undefined : 'no errors member';
  // ID authentication's envelope names the message errorMessage.
  const errors = body.errors as { errorCode?: unknown; message?: unknown; errorMessage?: unknown }[] | null;
  if (errors !== null && !Array.isArray(errors)) return 'errors is neither null nor a list';
  if (errors?.some((error) => typeof error.errorCode !== 'string' || typeof (error.message ?? error.errorMessage) !== 'string'))
    return 'an error without errorCode or message';
  return undefined;
}

/** Whether a REST or GraphQL answer refused the request (a top-level error or a payload's userErrors). */
function refused(text: string): boolean {
  try {
    const body = JSON.parse(text) as { errors?: unknown[] | null; data?: Record<string, { userErrors?: unknown[] } | null> | null };
    if (Array.isArray(body.errors) && body.errors.length > 0) return true;
    return Object.values(body.data ?? {}).some((payload) => (payload?.userErrors?.length ?? 0) > 0);
  } catch {
    return true;
  }
}

/** Sends one request; its fault, if any, and whether a refusal changed a row count. */
async function probe(method: string, urlPath: string, body: HostileBody | undefined, graph = false): Promise<string | undefined> {
  const before = await t.snapshot();
  const headers: Record<string, string> = { ...cookieHeader(token), ...(body?.contentType ? { 'content-type': body.contentType } : {}) };
  const response = await fetch(t.baseUrl + urlPath, { method, headers, body: body?.body ? new Uint8Array(body.body) : undefined });
  const text = await response.text();
  const fault = faultOf(response.status, response.headers.get('content-type') ?? '', text, graph);
  if (fault) return `${fault}: ${text.slice(0, 300)}`;
  if (refused(text)) {
    const after = await t.snapshot();
    const changed = Object.keys(after).filter((table) => after[table] !== before[table]);
    if (changed.length) return `refused, yet rows changed in ${changed.join(', ')}: ${text.slice(0, 300)}`;
  }
  return undefined;
}

const pathWith = (template: string, segments: string[]) => {
  let index = 0;
  return template.replace(/\{[^}]+\}/g, () => segments[index++ % Math.max(segments.length, 1)] ?? 'x');
};

describe('the fault checks', () => {
  it('tell a 5xx, HTML, a stack trace, an error without a code and a GraphQL answer without data from the shapes clients expect', () => {
    const json = 'application/json; charset=utf-8';
    expect(faultOf(500, json, '{"errors":[{"errorCode":"X","message":"m"}]}', false)).toBe('status 500');
    expect(faultOf(400, 'text/html', '<html>Bad Request</html>', false)).toBe('HTML');
    expect(faultOf(200, json, '{"errors":[{"errorCode":"X","message":"at run (/work/main/lib/x.ts:12:3)"}]}', false)).toMatch(/stack trace/);
    expect(faultOf(200, json, '{"errors":[{"message":"m"}]}', false)).toMatch(/errorCode/);
    expect(faultOf(200, json, '{"errors":{"a":1}}', false)).toMatch(/neither null nor a list/);
    expect(faultOf(400, 'text/plain', 'Bad Request', false)).toMatch(/not JSON/);
    expect(faultOf(200, json, '{"extensions":{}}', true)).toBe('neither data nor errors');
    expect(faultOf(200, json, '{"errors":[{"message":"m"}]}', true)).toMatch(/without message or code/);
    expect(faultOf(200, json, '{"id":"x","errors":[{"errorCode":"KER-ATH-401","message":"m"}],"response":null}', false)).toBeUndefined();
    expect(faultOf(200, json, '{"data":null,"errors":[{"message":"m","extensions":{"code":"BAD_USER_INPUT"}}]}', true)).toBeUndefined();
    expect(refused('{"data":{"createX":{"userErrors":[{"code":"C"}]}}}')).toBe(true);
    expect(refused('{"data":{"createX":{"userErrors":[]}}}')).toBe(false);
  });
});

describe('hostile input on every REST route', () => {
  it('covers every route', () => {
    expect(REST_ROUTES.length).toBeGreaterThan(180);
  });

  it.each(REST_ROUTES.map((route) => [`${route.method.toUpperCase()} ${route.path}`, route] as const))('%s', async (_name, route) => {
    const withBody = ['post', 'put', 'patch'].includes(route.method);
    const parameters = (route.path.match(/\{[^}]+\}/g) ?? []).length;
    await fc.assert(
      fc.asyncProperty(
        fc.array(hostileSegment, { minLength: parameters, maxLength: parameters }),
        hostileQuery,
        withBody ? hostileBody : fc.constant(undefined),
        async (segments, query, body) => {
          const fault = await probe(route.method.toUpperCase(), pathWith(route.path, segments) + query, body);
          expect(fault, `${body?.what ?? 'no body'}`).toBeUndefined();
        },
      ),
      { numRuns: RUNS, seed: SEED, endOnFailure: true },
    );
  });
});

/** A variable's value: hostile, of its declared shape often enough to reach the resolver's own checks. */
function variableOf(type: GraphQLInputType): fc.Arbitrary<unknown> {
  const named = getNamedType(type);
  if (isNonNullType(type)) return variableOf(type.ofType);
  if (isListType(type)) return fc.oneof(fc.array(variableOf(type.ofType), { maxLength: 3 }), hostileValue);
  if (isInputObjectType(named)) {
    const fields = Object.values(named.getFields());
    return fc.oneof(
      { weight: 3, arbitrary: fc.record(Object.fromEntries(fields.map((field) => [field.name, variableOf(field.type)])), { requiredKeys: [] }) },
      { weight: 1, arbitrary: hostileValue },
    );
  }
  return hostileValue;
}

/** Every mutation the components declare (the role table names each root field), known before the schema is served. */
const MUTATIONS = Object.keys(ROLE_TABLE)
  .filter((operation) => operation.startsWith('Mutation.'))
  .map((operation) => operation.slice('Mutation.'.length));

describe('hostile variables on every GraphQL mutation', () => {
  it('covers every mutation the graph serves', () => {
    expect(MUTATIONS.length).toBeGreaterThan(120);
    expect(Object.keys(schema.getMutationType()!.getFields()).sort()).toEqual([...MUTATIONS].sort());
  });

  it.each(MUTATIONS)('%s', async (name) => {
    const field = schema.getMutationType()!.getFields()[name]!;
    const declared = field.args.map((arg) => `$${arg.name}: ${arg.type.toString()}`).join(', ');
    const passed = field.args.map((arg) => `${arg.name}: $${arg.name}`).join(', ');
    const selection = isLeafType(getNamedType(field.type)) ? '' : ' { __typename }';
    const query = `mutation${declared ? `(${declared})` : ''} { ${name}${passed ? `(${passed})` : ''}${selection} }`;
    const variables = fc.record(Object.fromEntries(field.args.map((arg) => [arg.name, variableOf(arg.type)])), { requiredKeys: [] });
    await fc.assert(
      fc.asyncProperty(variables, async (values) => {
        const body = { what: 'variables', contentType: 'application/json', body: Buffer.from(JSON.stringify({ query, variables: values })) };
        expect(await probe('POST', '/graphql', body, true)).toBeUndefined();
      }),
      { numRuns: RUNS, seed: SEED, endOnFailure: true },
    );
  });
});
