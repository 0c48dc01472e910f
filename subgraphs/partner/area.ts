import type { Resolvers } from '../../generated/graphql/partner.js';
import type { Area } from '../areas.js';
import type { Desk } from './callers.js';
import type { PartnerSettings } from './settings.js';

/** One area of partner management (MISPs, policies, partners). */
export interface PartnerArea extends Area<Resolvers, PartnerSettings> {
  /** the desk (callers.ts) its role table's rows are called at */
  desk: Desk;
  /** rows called at another desk */
  desks?: Readonly<Record<string, Desk>>;
}

export const defineArea = (area: PartnerArea): PartnerArea => area;
