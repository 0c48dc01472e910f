import type { RestRoute } from '../route.js';

export const policiesRoutes: RestRoute[] = [];
