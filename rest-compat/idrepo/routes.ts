import type { RestRoute } from '../route.js';
import { identitiesRoutes } from './identities.js';

/** Every ID repository path of the spec, under /idrepository/v1. */
export const idrepoRoutes: RestRoute[] = [...identitiesRoutes];
