import type { RestRoute } from '../route.js';

export const documentsRoutes: RestRoute[] = [];
