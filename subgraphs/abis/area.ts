import type { Resolvers } from '../../generated/graphql/abis.js';
import type { Area } from '../areas.js';

/** One area of the ABIS component (data shares; requests over the queue next). */
export type AbisArea = Area<Resolvers>;

export const defineArea = (area: AbisArea): AbisArea => area;
