import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { ApolloServer } from '@apollo/server';
import {
  getOperationAST,
  GraphQLError,
  Kind,
  OperationTypeNode,
  parse,
  validate,
  type DocumentNode,
  type ExecutionArgs,
  type FieldNode,
  type GraphQLSchema,
} from 'graphql';
import { CloseCode } from 'graphql-ws';
import { useServer } from 'graphql-ws/use/ws';
import { WebSocketServer } from 'ws';
import type { CredentialHeaders, RequestContext } from '../lib/context.js';
import { PlatformError } from '../lib/errors.js';
import type { LiveChanges, LiveSubscription } from '../lib/live.js';
import { LiveQuery, type LiveContext } from './live-query.js';
import type { Logger } from '../lib/log.js';
import { authorize, type AccessTable } from '../lib/subgraph.js';
import type { Clock } from '../lib/time.js';
import { GRAPHQL_PATH } from './session-cookies.js';

/** The most subscriptions one connection holds at once: a dashboard's widgets, not a crawl. */
export const MAX_SUBSCRIPTIONS_PER_CONNECTION = 16;
/** setTimeout's longest delay. */
const MAX_TIMER_MS = 2 ** 31 - 1;
/** The largest message a client may send (a subscription document and its variables). */
const MAX_MESSAGE_BYTES = 64 * 1024;

export interface LiveOptions {
  graphql: ApolloServer<RequestContext>;
  /** the gateway's API schema, which subscription documents are validated against */
  schema: () => GraphQLSchema;
  changes: LiveChanges;
  /** each subscription field by name, with what it watches */
  subscriptions: ReadonlyMap<string, LiveSubscription>;
  contextFor: (headers: CredentialHeaders, clientAddress: string) => RequestContext;
  roleTable: AccessTable;
  specOpenEndpoints: boolean;
  /** PLATFORM_CORS_ORIGINS: the other origins whose pages may connect with the session cookie */
  corsOrigins: readonly string[];
  clock: Clock;
  logger: Logger;
}

/** What a connection keeps: the credentials it was accepted with (each answer checks them again) and its expiry timer. */
interface ConnectionExtra extends Record<PropertyKey, unknown> {
  credentials?: CredentialHeaders;
  clientAddress?: string;
  expiry?: NodeJS.Timeout;
}

/**
 * Live updates over WebSocket (the graphql-transport-ws protocol of
 * graphql-ws) on `/graphql`. A subscription is the query of the same name:
 * answered at once, then again whenever a change it watches is announced
 * (lib/live.ts: every instance's writes, through PostgreSQL NOTIFY), and only
 * when the answer differs. Each answer runs through the gateway as a query
 * with the connection's credentials, so it obeys the same role rules, cost
 * limit and federation as any query; a token revoked or expired ends it.
 */
export function serveLive(server: Server, options: LiveOptions): { close(): Promise<void> } {
  const sockets = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });
  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    if (path !== GRAPHQL_PATH) return void socket.destroy();
    // A page of another origin would ride the session cookie (cross-site WebSocket hijacking): only the listed ones may.
    const origin = request.headers.origin;
    if (origin && !sameOrigin(origin, request.headers.host) && !options.corsOrigins.includes(origin)) {
      socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    sockets.handleUpgrade(request, socket, head, (ws) => sockets.emit('connection', ws, request));
  };
  server.on('upgrade', onUpgrade);
  const disposable = useServer<Record<string, unknown> | undefined, ConnectionExtra>(
    {
      onConnect: (ctx) => accept(ctx, options),
      onClose: (ctx) => clearTimeout(ctx.extra.expiry),
      onSubscribe: (ctx, _id, payload) => prepare(ctx, payload, options),
      subscribe: (args) => new LiveQuery(args, options),
    },
    sockets,
  );
  return {
    close: async () => {
      server.off('upgrade', onUpgrade);
      for (const client of sockets.clients) client.close(1001, 'the platform is stopping');
      await disposable.dispose();
    },
  };
}

function sameOrigin(origin: string, host: string | undefined): boolean {
  try {
    return !!host && new URL(origin).host === host;
  } catch {
    return false;
  }
}

type Ctx = Parameters<NonNullable<Parameters<typeof useServer<Record<string, unknown> | undefined, ConnectionExtra>>[0]['onConnect']>>[0];

/**
 * A connection is accepted with a valid token only: the `authorization` of
 * its connection_init payload ("Bearer …"), else its upgrade request's
 * cookie or header. It is closed when that token expires.
 */
async function accept(ctx: Ctx, options: LiveOptions): Promise<boolean> {
  const request = ctx.extra.request;
  const given = ctx.connectionParams?.authorization;
  const credentials: CredentialHeaders = {
    cookie: request.headers.cookie,
    authorization: typeof given === 'string' ? given : request.headers.authorization,
  };
  const clientAddress = request.socket.remoteAddress ?? 'unknown';
  let expiresAt: Date;
  try {
    ({ expiresAt } = await options.contextFor(credentials, clientAddress).principal());
  } catch (error) {
    if (error instanceof PlatformError) return false;
    throw error;
  }
  ctx.extra.credentials = credentials;
  ctx.extra.clientAddress = clientAddress;
  const socket = ctx.extra.socket;
  // A timer longer than setTimeout's bound (about 24.8 days) would fire at once: such a token is looked at again then.
  const arm = () => {
    const left = expiresAt.getTime() - options.clock.now().getTime();
    ctx.extra.expiry =
      left > MAX_TIMER_MS ? setTimeout(arm, MAX_TIMER_MS) : setTimeout(() => socket.close(CloseCode.Forbidden, 'the token has expired'), Math.max(0, left));
    ctx.extra.expiry.unref();
  };
  arm();
  return true;
}

/** The subscription's one root field, refused unless it is a declared one the caller's roles open. */
async function prepare(ctx: Ctx, payload: { query: string; variables?: Record<string, unknown> | null; operationName?: string | null }, options: LiveOptions) {
  const refuse = (message: string, code: string) => [new GraphQLError(message, { extensions: { code } })];
  if (Object.keys(ctx.subscriptions).length >= MAX_SUBSCRIPTIONS_PER_CONNECTION)
    return refuse(`at most ${MAX_SUBSCRIPTIONS_PER_CONNECTION} subscriptions on one connection`, 'BAD_USER_INPUT');
  const schema = options.schema();
  let document: DocumentNode;
  try {
    document = parse(payload.query, { maxTokens: 2000 });
  } catch (error) {
    return refuse((error as Error).message, 'GRAPHQL_PARSE_FAILED');
  }
  const invalid = validate(schema, document);
  if (invalid.length) return invalid.map((error) => new GraphQLError(error.message, { extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } }));
  const operation = getOperationAST(document, payload.operationName);
  if (operation?.operation !== OperationTypeNode.SUBSCRIPTION)
    return refuse('only subscriptions are served here: queries and mutations go to POST /graphql', 'BAD_REQUEST');
  const field = operation.selectionSet.selections.find((selection): selection is FieldNode => selection.kind === Kind.FIELD);
  const declared = field && options.subscriptions.get(field.name.value);
  if (!field || !declared) return refuse('not a subscription of the platform', 'GRAPHQL_VALIDATION_FAILED');
  const rootField = `Subscription.${field.name.value}`;
  try {
    const context = options.contextFor(ctx.extra.credentials ?? {}, ctx.extra.clientAddress ?? 'unknown');
    await authorize(options.roleTable[rootField], rootField, context, options.specOpenEndpoints);
  } catch (error) {
    if (error instanceof PlatformError) return refuse(error.message, error.code);
    throw error;
  }
  const args: ExecutionArgs = {
    schema,
    document,
    operationName: payload.operationName ?? null,
    variableValues: payload.variables ?? {},
    contextValue: { credentials: ctx.extra.credentials ?? {}, clientAddress: ctx.extra.clientAddress ?? 'unknown', declared, field } satisfies LiveContext,
  };
  return args;
}
