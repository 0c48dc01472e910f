import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginDrainHttpServer } from '@apollo/server/plugin/drainHttpServer';
import { ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { expressMiddleware } from '@as-integrations/express5';
import express, { type Response } from 'express';
import { createRequestContext, type RequestContext } from '../lib/context.js';
import type { PlatformDeps } from '../lib/deps.js';
import type { GraphQLSchema } from 'graphql';
import { errorFormatter } from './format-error.js';
import { traceRequests } from './tracing.js';
import { sessionCookiesOn } from './session-cookies.js';
import { costLimit, introspectionGuard, limitOptions, variablesDepthLimit } from './graphql-limits.js';

/** The request's context with the session cookies a login here sets on this answer (the gateway passes them on). */
const withCookies = (res: Response, context: RequestContext): RequestContext => ({ ...context, sessionCookies: sessionCookiesOn(res) });

export interface SubgraphServer {
  url: string;
  close(): Promise<void>;
}

/**
 * One component as its own GraphQL service. It verifies the caller's token
 * itself from the forwarded headers, so it is safe to reach without the gateway.
 */
export async function startSubgraphServer(schema: GraphQLSchema, deps: PlatformDeps, port: number, host = '127.0.0.1'): Promise<SubgraphServer> {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', 'loopback');
  const http: Server = await new Promise((resolve) => {
    const server = app.listen(port, host, () => resolve(server));
  });
  const server = new ApolloServer<RequestContext>({
    schema,
    formatError: errorFormatter(deps.logger, { keepCatalogueMark: true }),
    includeStacktraceInErrorResponses: false,
    // The process decides when to stop (gateway/signals.ts); Apollo's own handler would race it.
    stopOnTerminationSignals: false,
    // Reachable without the gateway: the same limits on hostile documents.
    ...limitOptions(deps.config.graphql),
    plugins: [
      ApolloServerPluginDrainHttpServer({ httpServer: http }),
      // Apollo's landing page loads from a CDN: an air-gapped subgraph serves none (the gateway has GraphiQL).
      ApolloServerPluginLandingPageDisabled(),
      introspectionGuard(deps.config.graphql),
      costLimit(deps.config.graphql),
      variablesDepthLimit(),
    ],
  });
  await server.start();
  app.use(traceRequests());
  app.use(
    '/graphql',
    express.json({ limit: deps.config.maxBodyBytes }),
    expressMiddleware(server, {
      context: ({ req, res }) =>
        Promise.resolve(
          withCookies(
            res,
            createRequestContext(
              {
                headers: { cookie: req.headers.cookie, authorization: req.headers.authorization },
                clientAddress: req.ip ?? 'unknown',
                requestId: typeof req.headers['x-request-id'] === 'string' ? req.headers['x-request-id'] : undefined,
              },
              deps.tokens,
            ),
          ),
        ),
    }),
  );
  const { port: actual } = http.address() as AddressInfo;
  return {
    url: `http://${host}:${actual}/graphql`,
    close: () => server.stop(),
  };
}
