import type { RestRoute } from '../route.js';

export const syncRoutes: RestRoute[] = [];
