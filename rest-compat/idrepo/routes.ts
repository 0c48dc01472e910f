import type { RestRoute } from '../route.js';
import { identitiesRoutes } from './identities.js';
import { locksRoutes } from './locks.js';
import { uinsRoutes } from './uins.js';
import { vidsRoutes } from './vids.js';

/** Every ID repository path of the spec, under /idrepository/v1. */
export const idrepoRoutes: RestRoute[] = [...identitiesRoutes, ...vidsRoutes, ...locksRoutes, ...uinsRoutes];
