import type { Resolvers } from '../../generated/graphql/partner.js';
import type { Area } from '../areas.js';
import type { PartnerSettings } from './settings.js';

/** One area of partner management (MISPs, policies, partners). */
export type PartnerArea = Area<Resolvers, PartnerSettings>;

export const defineArea = (area: PartnerArea): PartnerArea => area;
