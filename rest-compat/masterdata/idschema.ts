import type { RestRoute } from '../route.js';

export const idschemaRoutes: RestRoute[] = [];
