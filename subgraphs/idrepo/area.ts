import type { Resolvers } from '../../generated/graphql/idrepo.js';
import type { Area } from '../areas.js';

/** One area of the ID repository (identities, VIDs, authentication-type locks). */
export type IdrepoArea = Area<Resolvers>;

export const defineArea = (area: IdrepoArea): IdrepoArea => area;
