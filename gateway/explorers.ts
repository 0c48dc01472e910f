import { createRequire } from 'node:module';
import path from 'node:path';
import type { Express, NextFunction, Request, RequestHandler, Response } from 'express';
import { EXPLORER_STYLE, GRAPHIQL_PAGE, GRAPHIQL_SCRIPT, SWAGGER_PAGE, SWAGGER_SCRIPT } from './explorers-pages.js';

// Swagger UI at /swagger-ui and GraphiQL at GET /graphql (for a browser), served whole from the platform: the
// deployments are air-gapped, so nothing is fetched from another host (a CSP of 'self' makes sure of it).

export interface ExplorerOptions {
  /** PLATFORM_GRAPHQL_EXPLORER: GraphiQL for a browser at GET /graphql */
  graphiql: boolean;
}

/** A served file: one of a package's files, or a text of our own. */
type Asset = { file: string } | { text: string; type: string };

const require = createRequire(import.meta.url);
const packageFile = (name: string, file: string): Asset => ({ file: path.join(path.dirname(require.resolve(`${name}/package.json`)), file) });

/** What the pages may load: their own origin only; data: images and fonts are the ones the stylesheets embed. */
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

function secure(res: Response): void {
  res.setHeader('Content-Security-Policy', CONTENT_SECURITY_POLICY);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Referrer-Policy', 'no-referrer');
}

const html =
  (text: string): RequestHandler =>
  (_req, res) => {
    secure(res);
    res.type('html').send(text);
  };

/** Serves the assets of one list by their exact name: a name from the request is only ever a key, never a path. */
function assets(list: Readonly<Record<string, Asset>>): RequestHandler {
  const byName = new Map(Object.entries(list));
  return (req: Request, res: Response, next: NextFunction) => {
    const asset = byName.get(String(req.params.name));
    if (!asset) return next();
    secure(res);
    if ('text' in asset) return void res.type(asset.type).send(asset.text);
    res.sendFile(asset.file, (error?: Error) => (error && !res.headersSent ? next(error) : undefined));
  };
}

const SWAGGER_ASSETS: Record<string, Asset> = {
  'swagger-ui-bundle.js': packageFile('swagger-ui-dist', 'swagger-ui-bundle.js'),
  'swagger-ui.css': packageFile('swagger-ui-dist', 'swagger-ui.css'),
  'favicon-32x32.png': packageFile('swagger-ui-dist', 'favicon-32x32.png'),
  'init.js': { text: SWAGGER_SCRIPT, type: 'text/javascript' },
};

const GRAPHIQL_ASSETS: Record<string, Asset> = {
  'react.production.min.js': packageFile('react', 'umd/react.production.min.js'),
  'react-dom.production.min.js': packageFile('react-dom', 'umd/react-dom.production.min.js'),
  'graphiql.min.js': packageFile('graphiql', 'graphiql.min.js'),
  'graphiql.min.css': packageFile('graphiql', 'graphiql.min.css'),
  'explorer.css': { text: EXPLORER_STYLE, type: 'text/css' },
  'init.js': { text: GRAPHIQL_SCRIPT, type: 'text/javascript' },
};

/** A browser's page load (it prefers HTML), not a GraphQL client's GET. */
const wantsPage = (req: Request) => req.accepts(['application/json', 'application/graphql-response+json', 'text/html']) === 'text/html';

/** Mounts the explorers; call before /graphql's own handler, which then answers whatever GraphiQL leaves. */
export function mountExplorers(app: Express, options: ExplorerOptions): void {
  app.get('/swagger-ui', html(SWAGGER_PAGE));
  app.get('/swagger-ui/assets/:name', assets(SWAGGER_ASSETS));
  if (!options.graphiql) return;
  const graphiql = html(GRAPHIQL_PAGE);
  app.get('/graphql', (req, res, next) => (wantsPage(req) ? graphiql(req, res, next) : next()));
  app.get('/graphiql/assets/:name', assets(GRAPHIQL_ASSETS));
}
