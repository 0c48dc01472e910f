// Tokens an attacker makes, and a call of every guarded GraphQL root field, for the token tests
// (test/rest/token-attacks.test.ts in-process, test/integration/subgraph-process.test.ts through a
// subgraph in its own process).
import { createHmac, createPublicKey, randomUUID } from 'node:crypto';
import {
  buildClientSchema,
  getIntrospectionQuery,
  getNamedType,
  isEnumType,
  isInputObjectType,
  isLeafType,
  isListType,
  isNonNullType,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLSchema,
  type IntrospectionQuery,
} from 'graphql';
import jwt from 'jsonwebtoken';
import type { AccessTable } from '../../lib/subgraph.js';
import { SIGNING_KEY_PURPOSE } from '../../lib/tokens/signing-keys.js';
import { cookieHeader, type TestPlatform } from './platform.js';

const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const claimsOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as Record<string, unknown>;

export interface ForgedTokens {
  /** each refused wherever a token is needed: name → token */
  attacks: Record<string, string>;
  /** signed as the attacks with the platform's key, for the platform's audience: taken */
  control: string;
}

/**
 * From an admin's token of `t`: the same claims tampered, unsigned (alg none), signed HS256 with
 * the public key the JWKS publishes, signed by the platform's own active key for another audience
 * or already expired, and a token its holder invalidated.
 */
export async function forgeTokens(t: TestPlatform): Promise<ForgedTokens> {
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
  // Signed by the platform's own active key (an insider with the key).
  const row = await t.platform.deps.prisma.signingKey.findFirstOrThrow({ where: { active: true } });
  const privatePem = t.platform.deps.masterKey.unwrap(row.privateKey, SIGNING_KEY_PURPOSE).toString('utf8');
  const { aud: _aud, iss: _iss, exp: _exp, iat: _iat, ...rest } = claims;
  const now = Math.floor(t.clock.now().getTime() / 1000);
  const signed = (audience: string, iat: number, exp: number) =>
    jwt.sign({ ...rest, jti: randomUUID(), iat, exp }, privatePem, { algorithm: 'RS256', keyid: row.id, issuer: String(claims.iss), audience });
  const invalidated = await t.adminToken();
  await t.request('POST', '/v1/authmanager/authorize/invalidateToken', { headers: cookieHeader(invalidated) });
  return {
    attacks: {
      tampered: `${header}.${base64url({ ...claims, sub: 'someone-else', roles: ['GLOBAL_ADMIN', 'ID_REPOSITORY'] })}.${signature}`,
      'alg none': `${base64url({ alg: 'none', typ: 'JWT' })}.${base64url(claims)}.`,
      'HS256 with the public key': `${hsHeader}.${hsPayload}.${hmac}`,
      'another audience': signed('another-service', now, now + 600),
      expired: signed(String(claims.aud), now - 7200, now - 3600),
      invalidated,
    },
    control: signed(String(claims.aud), now, now + 600),
  };
}

/** The served API schema, read by introspection (which needs a valid token). */
export async function servedSchema(t: TestPlatform, token: string): Promise<GraphQLSchema> {
  const answer = (await t.graphql(getIntrospectionQuery(), {}, cookieHeader(token))) as { data: IntrospectionQuery };
  return buildClientSchema(answer.data);
}

export interface GuardedCall {
  /** `<Type>.<field>` as the role table names it */
  operation: string;
  query: string;
  variables: Record<string, unknown>;
}

/** A value of an input type that passes the graph's validation (not necessarily the component's rules). */
function sampleOf(type: GraphQLInputType): unknown {
  if (isNonNullType(type)) return sampleOf(type.ofType);
  if (isListType(type)) return [];
  if (isEnumType(type)) return type.getValues()[0]!.value;
  if (isInputObjectType(type)) {
    const fields = Object.values(type.getFields());
    // A OneOf input takes exactly one field.
    if (type.isOneOf) return { [fields[0]!.name]: sampleOf(fields[0]!.type) };
    return Object.fromEntries(
      fields.filter((field) => isNonNullType(field.type) && field.defaultValue === undefined).map((field) => [field.name, sampleOf(field.type)]),
    );
  }
  const scalars: Record<string, unknown> = {
    Int: 1,
    Float: 1,
    Boolean: false,
    DateTime: '2026-01-01T00:00:00.000Z',
    Date: '2026-01-01',
    TimeOfDay: '09:00:00',
    JSON: {},
  };
  return scalars[getNamedType(type).name] ?? 'x1';
}

function callOf(kind: 'query' | 'mutation', typeName: string, field: GraphQLField<unknown, unknown>): GuardedCall {
  const required = field.args.filter((arg) => isNonNullType(arg.type) && arg.defaultValue === undefined);
  const declared = required.map((arg) => `$${arg.name}: ${arg.type.toString()}`).join(', ');
  const passed = required.map((arg) => `${arg.name}: $${arg.name}`).join(', ');
  const selection = isLeafType(getNamedType(field.type)) ? '' : ' { __typename }';
  return {
    operation: `${typeName}.${field.name}`,
    query: `${kind}${declared ? `(${declared})` : ''} { ${field.name}${passed ? `(${passed})` : ''}${selection} }`,
    variables: Object.fromEntries(required.map((arg) => [arg.name, sampleOf(arg.type)])),
  };
}

/** Operations the role table opens to everyone because they check the caller's token themselves. */
export const TOKEN_READERS: ReadonlySet<string> = new Set(['Query.validateToken', 'Mutation.invalidateToken']);

/** Whether an operation needs a good token: guarded by the role table, or a token reader. */
export const needsToken = (table: AccessTable, operation: string): boolean =>
  TOKEN_READERS.has(operation) || (table[operation] !== undefined && table[operation].kind !== 'public');

/** A call of every query and mutation root field of `schema` that needs a good token (of `only`, when given). */
export function guardedCalls(schema: GraphQLSchema, table: AccessTable, only?: ReadonlySet<string>): GuardedCall[] {
  const calls: GuardedCall[] = [];
  for (const [kind, type] of [
    ['query', schema.getQueryType()],
    ['mutation', schema.getMutationType()],
  ] as const) {
    for (const field of Object.values(type?.getFields() ?? {})) {
      const operation = `${type!.name}.${field.name}`;
      if (!needsToken(table, operation) || (only && !only.has(operation))) continue;
      calls.push(callOf(kind, type!.name, field));
    }
  }
  return calls;
}
