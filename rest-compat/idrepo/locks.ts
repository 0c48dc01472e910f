import type { RestRoute } from '../route.js';

/** Placeholder: the locks area's paths, being written. */
export const locksRoutes: RestRoute[] = [];
