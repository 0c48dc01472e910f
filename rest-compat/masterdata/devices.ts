import type { RestRoute } from '../route.js';

export const devicesRoutes: RestRoute[] = [];
