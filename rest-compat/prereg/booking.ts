import type { RestRoute } from '../route.js';

export const bookingRoutes: RestRoute[] = [];
