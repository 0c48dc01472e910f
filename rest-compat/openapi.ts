import type { Access } from '../lib/roles.js';
import type { AccessTable } from '../lib/subgraph.js';
import { describeCodes, routeErrorCodes } from './openapi-errors.js';
import { requestParts, schemaOf, TIMESTAMP_FORMAT, type JsonSchema } from './openapi-request.js';
import { routeOrigin } from './route-factory.js';
import type { RestRoute } from './route.js';

const errorItems: JsonSchema = {
  type: ['array', 'null'],
  items: { type: 'object', properties: { errorCode: { type: 'string' }, message: { type: 'string' } }, required: ['errorCode', 'message'] },
};

function responseEnvelope(route: RestRoute): JsonSchema {
  if (route.envelope) return route.envelope.schema(schemaOf(route.response));
  return {
    type: 'object',
    properties: {
      id: { type: ['string', 'null'], const: route.id },
      [route.versionKey ?? 'version']: { type: ['string', 'null'] },
      responsetime: { type: 'string', description: TIMESTAMP_FORMAT },
      metadata: { type: ['object', 'null'] },
      response: { anyOf: [schemaOf(route.response), { type: 'null' }] },
      errors: errorItems,
    },
    required: ['id', 'responsetime', 'response', 'errors'],
  };
}

const SIGNATURE_HEADER = {
  'Response-Signature': { description: 'a detached JWS (RS256) over the response body, by the platform\u2019s signature key', schema: { type: 'string' } },
};

/** HTTP 200 for every answer, success or failure (the envelope's `errors` tells), but a raw success and a route's HTTP auth statuses. */
function responses(route: RestRoute): JsonSchema {
  const envelope = { 'application/json': { schema: responseEnvelope(route) } };
  const headers = route.signResponse ? { headers: SIGNATURE_HEADER } : {};
  const ok = route.rawSuccess
    ? {
        description: `The answer itself (${route.rawSuccess.contentType}); failures answer the envelope with \`errors\``,
        content: { [route.rawSuccess.contentType]: { schema: schemaOf(route.response) }, ...envelope },
      }
    : { description: 'Response envelope; failures fill `errors` and leave `response` null', content: envelope, ...headers };
  if (!route.httpAuthStatus) return { 200: ok };
  return {
    200: ok,
    401: { description: 'No valid token: `KER-ATH-401` in the envelope', content: envelope },
    403: { description: 'The token has no role allowed for this call: `KER-ATH-403` in the envelope', content: envelope },
  };
}

const SIGNED_IN = [{ platformCookie: [] }, { bearerToken: [] }];

/** Who may call: no token for a public operation; a token otherwise; none either for what the spec flags open when PLATFORM_SPEC_OPEN_ENDPOINTS=true. */
function accessParts(access: Access | undefined): JsonSchema {
  if (!access) return { security: SIGNED_IN, 'x-roles': [] };
  if (access.kind === 'public') return { security: [] };
  if (access.kind === 'authenticated') return { security: SIGNED_IN };
  return { security: access.specOpen ? [{}, ...SIGNED_IN] : SIGNED_IN, 'x-roles': access.roles };
}

function accessText(access: Access | undefined): string {
  if (!access) return 'Open to no role.';
  if (access.kind === 'public') return 'No token needed.';
  if (access.kind === 'authenticated') return 'Any signed-in caller.';
  const open = access.specOpen ? ' (open to anyone with `PLATFORM_SPEC_OPEN_ENDPOINTS=true`)' : '';
  return `Roles: ${access.roles.join(', ')}${open}.`;
}

/** The component a route belongs to (its module's), for grouping; else the first segments of its path. */
const tagOf = (route: RestRoute): string => routeOrigin(route)?.component ?? route.path.split('/').slice(1, 3).join('/');

/** One operation: its request, responses, who may call it and the codes it may answer. */
function operationOf(route: RestRoute, operationId: string, roleTable: AccessTable | undefined): JsonSchema {
  const access = roleTable && route.rootFields.map((field) => roleTable[field]).find((row) => row !== undefined);
  const codes = routeErrorCodes(route, roleTable ? access : { kind: 'public' });
  return {
    operationId,
    tags: [tagOf(route)],
    summary: route.summary,
    description: [roleTable ? accessText(access) : '', `GraphQL operation \`${route.operation.name}\`.`, describeCodes(codes)].filter(Boolean).join('\n\n'),
    ...(roleTable ? accessParts(access) : {}),
    ...requestParts(route),
    responses: responses(route),
    'x-graphql-operation': route.operation.name,
    'x-error-codes': codes,
  };
}

/**
 * The OpenAPI 3.1 document of the REST layer, built from the same route declarations that validate requests; with the
 * role table, each operation says who may call it.
 */
export function openApiDocument(routes: readonly RestRoute[], version: string, roleTable?: AccessTable): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  // Several paths run one GraphQL operation: the operation's name, numbered after its first use, keeps operationIds unique.
  const uses = new Map<string, number>();
  for (const route of routes) {
    const use = (uses.get(route.operation.name) ?? 0) + 1;
    uses.set(route.operation.name, use);
    paths[route.path] ??= {};
    paths[route.path]![route.method] = operationOf(route, use === 1 ? route.operation.name : `${route.operation.name}_${use}`, roleTable);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Identity platform REST API',
      version,
      description:
        'Every answer is an envelope with HTTP 200: a failure fills `errors` and leaves `response` null. Sign in with `POST /v1/authmanager/authenticate/internal/useridPwd`: the token comes back in the body and as the `Authorization` cookie, which a browser then sends by itself.',
    },
    tags: [...new Set(routes.map(tagOf))].map((name) => ({ name })),
    components: {
      securitySchemes: {
        platformCookie: {
          type: 'apiKey',
          in: 'cookie',
          name: 'Authorization',
          description: '`Platform-Token<jwt>`, set by the login calls; on the same origin a browser sends it by itself (it wins over the header)',
        },
        bearerToken: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'the token of a login, in the `Authorization: Bearer <jwt>` header' },
      },
    },
    ...(roleTable ? { security: SIGNED_IN } : {}),
    paths,
  };
}
