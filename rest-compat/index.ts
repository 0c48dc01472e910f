import type { Express } from 'express';
import { routeHandler, type HandlerDeps } from './handler.js';
import { expressPath, type RestRoute } from './route.js';

/** Mounts the routes (every component's, assembled in gateway/components.ts). */
export function mountRest(app: Express, deps: HandlerDeps, routes: readonly RestRoute[]): void {
  for (const route of routes) app[route.method](expressPath(route.path), routeHandler(route, deps));
}
