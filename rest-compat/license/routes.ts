import type { RestRoute } from '../route.js';

export const licenseRoutes: RestRoute[] = [];
