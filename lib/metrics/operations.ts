import type { ApolloServerPlugin, GraphQLResponse } from '@apollo/server';
import type { RequestContext } from '../context.js';
import { codeLabel, validOperationName, type RequestMetrics } from './registry.js';

/** What a request's access-log line tells beyond its route: who called, which operation, the first error code. Never a token. */
export interface RequestFacts {
  /** the GraphQL operation name, when a valid one */
  operation?: string;
  /** the verified caller's id (a user id, a client id, a resident's opaque identity id) and its kind */
  caller?: string;
  callerType?: string;
  /** the first error code of a GraphQL answer (an error, or a mutation payload's user error) */
  errorCode?: string;
}

// Apollo runs an operation on a shallow copy of the context (a WeakMap keyed by it would miss); a symbol-keyed field is copied along.
const FACTS = Symbol('requestFacts');
type Tracked = RequestContext & { [FACTS]?: RequestFacts };

const byRequest = new WeakMap<object, RequestFacts>();

/** The facts gathered so far of an HTTP request (undefined when none was noted: a static route, a 404). */
export const factsOf = (request: object): RequestFacts | undefined => byRequest.get(request);

/** The request's facts, made on first use, with `noted` added. */
export function noteFacts(request: object, noted: RequestFacts = {}): RequestFacts {
  let facts = byRequest.get(request);
  if (!facts) byRequest.set(request, (facts = {}));
  return Object.assign(facts, noted);
}

/**
 * The request's context with its facts attached: the caller is noted when a
 * resolver or the REST layer verifies the token (nothing is verified for the
 * log's sake), the operation and outcome by the GraphQL plugin below.
 */
export function trackRequest(request: object, context: RequestContext): RequestContext {
  const noted = noteFacts(request);
  const verify = () => context.principal();
  const tracked: Tracked = {
    ...context,
    principal: () =>
      verify().then((principal) => {
        noted.caller ??= principal.subject;
        noted.callerType ??= principal.subjectType;
        return principal;
      }),
  };
  tracked[FACTS] = noted;
  return tracked;
}

/** The first error code of an answer: its first error's, else the first user error of a mutation payload. */
function firstErrorCode(response: GraphQLResponse): string | undefined {
  if (response.body.kind !== 'single') return undefined;
  const { errors, data } = response.body.singleResult;
  const code = errors?.[0]?.extensions?.code;
  if (errors?.length) return typeof code === 'string' ? code : 'UNKNOWN';
  for (const value of Object.values(data ?? {})) {
    const userErrors = (value as { userErrors?: { code?: unknown }[] } | null)?.userErrors;
    const first = Array.isArray(userErrors) ? userErrors[0]?.code : undefined;
    if (typeof first === 'string') return first;
  }
  return undefined;
}

/**
 * Notes each operation's name and first error code in its request's facts,
 * and, for operations that came over HTTP to /graphql (not the REST layer's
 * own), counts and times them by operation name and outcome.
 */
export function operationPlugin(metrics: RequestMetrics | undefined): ApolloServerPlugin<RequestContext> {
  return {
    requestDidStart({ request, contextValue }) {
      const facts = (contextValue as Tracked)[FACTS];
      const started = process.hrtime.bigint();
      let name = validOperationName(request.operationName);
      return Promise.resolve({
        didResolveOperation({ operationName }) {
          name = validOperationName(operationName) ?? name;
          return Promise.resolve();
        },
        willSendResponse({ response }) {
          const code = firstErrorCode(response);
          if (facts) {
            if (name) facts.operation = name;
            if (code) facts.errorCode = codeLabel(code);
          }
          if (metrics && request.http) {
            const operation = metrics.operationLabel(name);
            metrics.graphqlOperations.inc({ operation, outcome: code ? codeLabel(code) : 'ok' });
            metrics.graphqlDuration.observe({ operation }, Number(process.hrtime.bigint() - started) / 1e9);
          }
          return Promise.resolve();
        },
      });
    },
  };
}
