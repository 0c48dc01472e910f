import type { Resolvers } from '../../generated/graphql/idrepo.js';
import type { Area } from '../areas.js';
import type { IdrepoSettings } from './settings.js';

/** One area of the ID repository (identities, VIDs, authentication-type locks, the UIN pool, residents). */
export type IdrepoArea = Area<Resolvers, IdrepoSettings>;

export const defineArea = (area: IdrepoArea): IdrepoArea => area;
