import { RemoteGraphQLDataSource, type GraphQLDataSource, type GraphQLDataSourceProcessOptions } from '@apollo/gateway';
import type { GatewayGraphQLResponse } from '@apollo/server-gateway-interface';
import { execute, GraphQLError, parse, validate, specifiedRules, type DocumentNode, type GraphQLSchema } from 'graphql';
import fetchHappen from 'make-fetch-happen';
import type { RequestContext } from '../lib/context.js';
import { isCallerVisible, maskedError, PlatformError } from '../lib/errors.js';
import type { Logger } from '../lib/log.js';
import { currentTraceParent } from '../lib/tracing.js';

type Parsed = { document: DocumentNode } | { errors: readonly GraphQLError[] };

/**
 * In-process subgraph. Unlike the stock LocalGraphQLDataSource it parses and
 * validates each distinct fetch once (the gateway sends the same few
 * documents over and over), and it masks anything that is not a catalogue
 * error so no internal detail crosses to the caller.
 */
export class CachedLocalDataSource implements GraphQLDataSource<RequestContext> {
  private readonly documents = new Map<string, Parsed>();

  constructor(
    private readonly schema: GraphQLSchema,
    private readonly logger: Logger,
    private readonly maxCached = 1000,
  ) {}

  private prepare(query: string): Parsed {
    let parsed = this.documents.get(query);
    if (!parsed) {
      try {
        const document = parse(query);
        const errors = validate(this.schema, document, specifiedRules);
        parsed = errors.length ? { errors } : { document };
      } catch (error) {
        parsed = { errors: [error instanceof GraphQLError ? error : new GraphQLError(String(error))] };
      }
      if (this.documents.size >= this.maxCached) this.documents.clear();
      this.documents.set(query, parsed);
    }
    return parsed;
  }

  async process(options: GraphQLDataSourceProcessOptions<RequestContext>): Promise<GatewayGraphQLResponse> {
    const { request } = options;
    const context = options.context as RequestContext;
    const parsed = this.prepare(request.query ?? '');
    // The gateway's plan carries the caller's literals: a value the subgraph's scalar refuses (a malformed DateTime) fails here.
    if ('errors' in parsed) return { errors: parsed.errors.map((error) => this.requestError(error, 'GRAPHQL_VALIDATION_FAILED', context)) };
    const result = await execute({
      schema: this.schema,
      document: parsed.document,
      variableValues: request.variables,
      operationName: request.operationName,
      contextValue: context,
    });
    if (!result.errors?.length) return { data: result.data };
    // No data at all: the request itself was refused before any resolver ran (a variable its type refuses, such as a
    // malformed DateTime): the caller's mistake, answered as Apollo Server answers it.
    if (!('data' in result)) return { errors: result.errors.map((error) => this.requestError(error, 'BAD_USER_INPUT', context)) };
    return { data: result.data, errors: result.errors.map((error) => this.visible(error, context)) };
  }

  private visible(error: GraphQLError, context: RequestContext) {
    if (isCallerVisible(error)) return error.toJSON();
    this.logger.error({ err: error.originalError ?? error, requestId: context?.requestId, path: error.path }, 'resolver failed');
    return { ...maskedError().toJSON(), path: error.path };
  }

  /**
   * A fetch the subgraph refused before running it: a value of the caller's (written in the query or passed as a
   * variable) that a scalar refuses is answered with its message and GraphQL's code; anything else is the
   * gateway's own fetch going wrong (its entity representations, say), logged and masked.
   */
  private requestError(error: GraphQLError, code: 'BAD_USER_INPUT' | 'GRAPHQL_VALIDATION_FAILED', context: RequestContext | undefined) {
    if (CALLERS_VALUE.test(error.message)) return { ...error.toJSON(), extensions: { ...error.extensions, code } };
    this.logger.error({ err: error, requestId: context?.requestId }, 'subgraph refused the fetch');
    return maskedError().toJSON();
  }
}

/** graphql-js's messages for a value that does not fit its type: a literal in the query, or a variable the caller passed. */
const CALLERS_VALUE = /^(Expected value of type |Variable "\$(?!representations")\w+" got invalid value )/;

/** A fetcher with a finite socket pool, so a slow subgraph cannot exhaust the process. */
const fetcher = fetchHappen.defaults({ maxSockets: 64, retry: false });

/** A subgraph running as its own service; each call carries the caller's credentials, which the subgraph checks itself. */
export function remoteDataSource(url: string): GraphQLDataSource<RequestContext> {
  return new RemoteGraphQLDataSource<RequestContext>({
    url,
    fetcher,
    willSendRequest({ request, context }) {
      const headers = request.http?.headers;
      if (!headers || !context) return;
      // Apollo types the context of a health check loosely; every query carries a RequestContext.
      const { credentialHeaders, requestId, clientAddress } = context as RequestContext;
      if (credentialHeaders.cookie) headers.set('cookie', credentialHeaders.cookie);
      if (credentialHeaders.authorization) headers.set('authorization', credentialHeaders.authorization);
      headers.set('x-request-id', requestId);
      headers.set('x-forwarded-for', clientAddress);
      // The subgraph's spans join the caller's trace (Apollo's fetch span is the active one here).
      const traceParent = currentTraceParent();
      if (traceParent) headers.set('traceparent', traceParent);
    },
    didReceiveResponse({ response, context }) {
      // A login served there set the session cookies on its answer: the caller's answer carries them (the two names only).
      const raw = (response.http?.headers as { raw?(): Record<string, string[] | undefined> } | undefined)?.raw?.();
      const setCookies = raw?.['set-cookie'];
      if (setCookies?.length) context.sessionCookies?.forward(setCookies);
      return response;
    },
  });
}

/** One operation of the platform's own sent straight to a subgraph, in-process or remote, as the caller. */
export function processOn(
  source: GraphQLDataSource<RequestContext>,
  request: { query: string; operationName?: string; variables?: Record<string, unknown> },
  context: RequestContext,
): Promise<GatewayGraphQLResponse> {
  return source.process({
    // GraphQLDataSourceRequestKind.INCOMING_OPERATION, an enum the package does not export.
    kind: 'incoming operation',
    request,
    context,
    incomingRequestContext: {},
  } as unknown as GraphQLDataSourceProcessOptions<RequestContext>);
}

const ENTITY_PRESENCE = 'query EntityPresence($representations: [_Any!]!) { _entities(representations: $representations) { __typename } }';

/**
 * Whether a subgraph finds one entity for this caller: its `_entities`, so its
 * reference resolver runs with its role row and scope, as when the gateway
 * follows a link. A catalogue refusal there is the caller's; anything else is masked.
 */
export async function entityPresent(
  source: GraphQLDataSource<RequestContext>,
  representation: Record<string, unknown>,
  context: RequestContext,
): Promise<boolean> {
  const response = await processOn(source, { query: ENTITY_PRESENCE, variables: { representations: [representation] } }, context);
  const refusal = response.errors?.[0];
  if (refusal) {
    const code = refusal.extensions?.code;
    if (refusal.extensions?.catalogue === true && typeof code === 'string') throw new PlatformError(code, refusal.message);
    throw new Error('the owning subgraph failed to look the entity up');
  }
  const found = (response.data as { _entities?: unknown[] } | undefined)?._entities?.[0];
  return found !== null && found !== undefined;
}
