import type { Resolvers } from '../../generated/graphql/regproc.js';
import type { Area } from '../areas.js';

/** One area of the registration processor (registrations, the pipeline). */
export type RegprocArea = Area<Resolvers>;

export const defineArea = (area: RegprocArea): RegprocArea => area;
