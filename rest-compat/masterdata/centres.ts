import type { RestRoute } from '../route.js';

export const centresRoutes: RestRoute[] = [];
