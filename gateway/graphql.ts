import { readFileSync } from 'node:fs';
import { ApolloGateway } from '@apollo/gateway';
import { ApolloServer, type ApolloServerPlugin } from '@apollo/server';
import { ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { buildSchema, isInputObjectType, type GraphQLSchema } from 'graphql';
import type { GraphqlLimits } from '../lib/config.js';
import type { RequestContext } from '../lib/context.js';
import type { Logger } from '../lib/log.js';
import { SUPERGRAPH_FILE } from './compose.js';
import { errorFormatter } from './format-error.js';
import { costLimit, introspectionGuard, limitOptions, variablesDepthLimit } from './graphql-limits.js';
import type { GraphQLDataSource } from '@apollo/gateway';

export interface GatewayOptions {
  /** every subgraph by name: in this process, or remote (SUBGRAPH_<NAME>_URL) */
  sources: ReadonlyMap<string, GraphQLDataSource<RequestContext>>;
  logger: Logger;
  limits: GraphqlLimits;
  plugins?: ApolloServerPlugin<RequestContext>[];
}

/** The federated gateway over the checked-in supergraph; each subgraph in-process or remote. */
export async function createGatewayServer(options: GatewayOptions): Promise<{ server: ApolloServer<RequestContext>; schema: () => GraphQLSchema }> {
  // @apollo/gateway reports telemetry and probes cloud metadata unless told not to.
  process.env.APOLLO_TELEMETRY_DISABLED = '1';
  const supergraphSdl = readFileSync(SUPERGRAPH_FILE, 'utf8');
  const gateway = new ApolloGateway({
    supergraphSdl,
    buildService: ({ name }) => {
      const source = options.sources.get(name);
      if (!source) throw new Error(`subgraph ${name} has neither a local schema nor SUBGRAPH_${name.toUpperCase()}_URL`);
      return source;
    },
    logger: quietLogger(options.logger),
  });
  keepOneOfInputs(gateway, supergraphSdl);
  const server = new ApolloServer<RequestContext>({
    gateway,
    introspection: true,
    ...limitOptions(options.limits),
    // The process decides when to stop (gateway/signals.ts); Apollo's own handler would race it and re-raise the signal.
    stopOnTerminationSignals: false,
    includeStacktraceInErrorResponses: false,
    plugins: [
      // Apollo's landing page loads its Sandbox from a CDN; a browser gets the platform's own GraphiQL instead (gateway/explorers.ts).
      ApolloServerPluginLandingPageDisabled(),
      introspectionGuard(options.limits),
      costLimit(options.limits),
      variablesDepthLimit(),
      ...(options.plugins ?? []),
    ],
    formatError: errorFormatter(options.logger),
  });
  await server.start();
  return {
    server,
    // The API schema the gateway serves, which subscription documents are checked against (set once started).
    schema: () => {
      if (!gateway.schema) throw new Error('the gateway has no schema yet');
      return gateway.schema;
    },
  };
}

/**
 * The gateway's API schema loses the OneOf mark of input objects (federation
 * keeps `@oneOf` in the SDL, its schema builder drops graphql-js's `isOneOf`):
 * set again on each loaded schema, so a request giving two fields of one is
 * refused by validation and variable coercion, before anything runs.
 */
function keepOneOfInputs(gateway: ApolloGateway, supergraphSdl: string): void {
  const declared = buildSchema(supergraphSdl, { assumeValidSDL: true });
  const names = Object.values(declared.getTypeMap())
    .filter((type) => isInputObjectType(type) && type.isOneOf)
    .map((type) => type.name);
  gateway.onSchemaLoadOrUpdate(({ apiSchema }) => {
    for (const name of names) {
      const type = apiSchema.getType(name);
      if (isInputObjectType(type)) (type as { isOneOf: boolean }).isOneOf = true;
    }
  });
}

/** Apollo's logger interface on pino, at one level lower so gateway chatter stays out of info logs. */
function quietLogger(logger: Logger) {
  return {
    debug: (message: unknown) => logger.trace({ gateway: true }, String(message)),
    info: (message: unknown) => logger.debug({ gateway: true }, String(message)),
    warn: (message: unknown) => logger.warn({ gateway: true }, String(message)),
    error: (message: unknown) => logger.error({ gateway: true }, String(message)),
  };
}
