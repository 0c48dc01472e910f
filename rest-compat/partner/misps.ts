import type { RestRoute } from '../route.js';

export const mispsRoutes: RestRoute[] = [];
