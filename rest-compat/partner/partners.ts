import type { RestRoute } from '../route.js';

export const partnersRoutes: RestRoute[] = [];
