import type { Express } from 'express';
import { authRoutes } from './auth/routes.js';
import { keysRoutes } from './keys/routes.js';
import { licenseRoutes } from './license/routes.js';
import { notifyRoutes } from './notify/routes.js';
import { otpRoutes } from './otp/routes.js';
import { routeHandler, type HandlerDeps } from './handler.js';
import { expressPath, type RestRoute } from './route.js';

/** Every REST path of the platform; mounted on the app and documented by /v3/api-docs from this one list. */
export const REST_ROUTES: readonly RestRoute[] = [...authRoutes, ...otpRoutes, ...notifyRoutes, ...keysRoutes, ...licenseRoutes];

export function mountRest(app: Express, deps: HandlerDeps, routes: readonly RestRoute[] = REST_ROUTES): void {
  for (const route of routes) app[route.method](expressPath(route.path), routeHandler(route, deps));
}
