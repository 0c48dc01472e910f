import { randomUUID } from 'node:crypto';
import { expressMiddleware } from '@as-integrations/express5';
import type { ApolloServer } from '@apollo/server';
import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import type { RequestContext } from '../lib/context.js';
import type { Logger } from '../lib/log.js';
import { envelope } from '../rest-compat/envelope.js';
import type { HandlerDeps } from '../rest-compat/handler.js';
import { mountRest } from '../rest-compat/index.js';
import type { RestRoute } from '../rest-compat/route.js';
import { openApiDocument } from '../rest-compat/openapi.js';

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      requestId?: string;
      log?: Logger;
    }
  }
}

export interface HealthReport {
  status: 'UP' | 'DOWN';
  components: Record<string, { status: string; details?: Record<string, unknown> }>;
}

export interface HttpOptions {
  server: ApolloServer<RequestContext>;
  rest: HandlerDeps;
  routes: readonly RestRoute[];
  logger: Logger;
  health: () => Promise<HealthReport>;
  trustProxy: string;
  maxBodyBytes: number;
  version: string;
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
      const route = (req.route as { path?: string } | undefined)?.path ?? (res.statusCode === 404 ? 'unmatched' : req.baseUrl || 'unmatched');
      req.log?.info({ method: req.method, route, status: res.statusCode, ms: Number(process.hrtime.bigint() - started) / 1e6 }, 'request');
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

export function createHttpApp(options: HttpOptions): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', options.trustProxy);
  app.use(accessLog(options.logger));
  app.get('/health', async (_req, res) => {
    const report = await options.health();
    res.status(report.status === 'UP' ? 200 : 503).json(report);
  });
  const apiDocs = openApiDocument(options.routes, options.version);
  app.get('/v3/api-docs', (_req, res) => res.json(apiDocs));
  app.use(
    '/graphql',
    express.json({ limit: options.maxBodyBytes }),
    expressMiddleware(options.server, { context: ({ req }) => Promise.resolve(options.rest.contextFor(req)) }),
  );
  mountRest(app, options.rest, options.routes);
  app.use(notFound);
  app.use(finalErrorHandler);
  return app;
}
