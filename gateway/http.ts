import { randomUUID } from 'node:crypto';
import { expressMiddleware } from '@as-integrations/express5';
import type { ApolloServer } from '@apollo/server';
import cors from 'cors';
import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import type { RequestContext } from '../lib/context.js';
import type { Logger } from '../lib/log.js';
import { envelope } from '../rest-compat/envelope.js';
import type { HandlerDeps } from '../rest-compat/handler.js';
import { mountRest } from '../rest-compat/index.js';
import type { RestRoute } from '../rest-compat/route.js';
import { openApiDocument } from '../rest-compat/openapi.js';
import { mountHealth, type Health } from './health.js';
import { mountExplorers, type ExplorerOptions } from './explorers.js';
import { factsOf } from '../lib/metrics/operations.js';
import { routeTemplate, type HttpObservers } from './metrics.js';
import { jwksRoute } from './jwks.js';
import { traceRequests } from './tracing.js';
import { GRAPHQL_PATH, sessionCookiesOn } from './session-cookies.js';
import type { Jwk } from '../lib/tokens.js';

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      requestId?: string;
      log?: Logger;
    }
  }
}

export interface HttpOptions {
  server: ApolloServer<RequestContext>;
  rest: HandlerDeps;
  routes: readonly RestRoute[];
  logger: Logger;
  health: Health;
  trustProxy: string;
  maxBodyBytes: number;
  version: string;
  /** Swagger UI and GraphiQL (gateway/explorers.ts) */
  explorers: ExplorerOptions;
  /** each request's facts for the log, its metrics and `/metrics` (gateway/metrics.ts) */
  metrics?: HttpObservers;
  /** PLATFORM_CORS_ORIGINS: the other origins whose pages may call with credentials */
  corsOrigins: readonly string[];
  /** the token signing keys' public halves, served at /.well-known/jwks.json (gateway/jwks.ts) */
  jwks?: () => Promise<{ keys: Jwk[] }>;
}

/** Request id and one access-log line per request, with the route template instead of the URL (no personal data). */
function accessLog(logger: Logger) {
  return (req: Request, res: Response, next: NextFunction) => {
    const header = req.headers['x-request-id'];
    req.requestId = typeof header === 'string' && /^[\w.-]{1,64}$/.test(header) ? header : randomUUID();
    req.log = logger.child({ requestId: req.requestId });
    res.setHeader('X-Request-Id', req.requestId);
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      // The caller's id, the GraphQL operation and the first error code: who did what, and what was refused.
      const facts = factsOf(req);
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      req.log?.info({ method: req.method, route: routeTemplate(req, res), status: res.statusCode, ms, ...facts }, 'request');
    });
    next();
  };
}

const notFound = (req: Request, res: Response) =>
  res.status(404).json(
    envelope(
      { id: null, version: null, now: new Date() },
      {
        response: null,
        errors: [{ errorCode: 'KER-REQ-404', message: `No endpoint ${req.method} ${req.path}` }],
      },
    ),
  );

/** Last resort: whatever went wrong, the caller gets an envelope, never an HTML page or a stack trace. */
function finalErrorHandler(error: unknown, req: Request, res: Response, next: NextFunction): void {
  if (res.headersSent) return next(error);
  const { type, status } = error as { type?: string; status?: number };
  // Malformed or oversized bodies, and paths whose percent-encoding does not decode (the router's 400).
  const clientError = type === 'entity.parse.failed' || type === 'entity.too.large' || status === 400;
  if (!clientError) req.log?.error({ err: error }, 'unhandled error');
  res.status(clientError ? 400 : 500).json(
    envelope(
      { id: null, version: null, now: new Date() },
      {
        response: null,
        errors: [
          {
            errorCode: clientError ? 'KER-REQ-400' : 'KER-REQ-500',
            message: clientError ? 'Malformed request: the body or the path cannot be read' : 'Internal server error',
          },
        ],
      },
    ),
  );
}

/**
 * CORS for the listed origins only: credentials allowed (the HttpOnly
 * cookie), the headers a portal sends (Apollo's preflight header among them)
 * and the ones it may read. An origin not listed gets no CORS header, so its
 * page cannot read an answer.
 */
function crossOrigin(origins: readonly string[]) {
  return cors({
    origin: [...origins],
    credentials: true,
    methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
    allowedHeaders: [
      'content-type',
      'authorization',
      'apollo-require-preflight',
      'x-apollo-operation-name',
      'x-request-id',
      'timestamp',
      'center-machine-refid',
    ],
    exposedHeaders: ['x-request-id', 'response-signature'],
    maxAge: 600,
  });
}

export function createHttpApp(options: HttpOptions): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', options.trustProxy);
  // Before everything: a preflight is answered here, whatever the path.
  if (options.corsOrigins.length) app.use(crossOrigin(options.corsOrigins));
  // Before the access log: scrapes every few seconds would drown the request lines.
  if (options.metrics?.scrape) app.get('/metrics', options.metrics.scrape);
  app.use(accessLog(options.logger));
  app.use(traceRequests());
  if (options.metrics) app.use(options.metrics.observe);
  mountHealth(app, options.health);
  const apiDocs = openApiDocument(options.routes, options.version, options.rest.roleTable);
  app.get('/v3/api-docs', (_req, res) => res.json(apiDocs));
  if (options.jwks) app.get('/.well-known/jwks.json', jwksRoute(options.jwks));
  mountExplorers(app, options.explorers);
  app.use(
    GRAPHQL_PATH,
    express.json({ limit: options.maxBodyBytes }),
    expressMiddleware(options.server, {
      context: ({ req, res }) => Promise.resolve({ ...options.rest.contextFor(req), sessionCookies: sessionCookiesOn(res) }),
    }),
  );
  mountRest(app, options.rest, options.routes);
  app.use(notFound);
  app.use(finalErrorHandler);
  return app;
}
