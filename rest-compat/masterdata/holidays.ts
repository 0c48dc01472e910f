import type { RestRoute } from '../route.js';

export const holidaysRoutes: RestRoute[] = [];
