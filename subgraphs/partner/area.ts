import type { Resolvers } from '../../generated/graphql/partner.js';
import type { Area } from '../areas.js';

/** One area of partner management (MISPs, policies, partners). */
export type PartnerArea = Area<Resolvers>;

export const defineArea = (area: PartnerArea): PartnerArea => area;
