import type { RestRoute } from '../route.js';

/** Placeholder: the vids area's paths, being written. */
export const vidsRoutes: RestRoute[] = [];
