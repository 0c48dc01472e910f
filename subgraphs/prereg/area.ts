import type { Resolvers } from '../../generated/graphql/prereg.js';
import type { Area } from '../areas.js';
import type { PreregSettings } from './settings.js';

/** One area of pre-registration (configuration, login, applications, documents, booking, sync). */
export type PreregArea = Area<Resolvers, PreregSettings>;

export const defineArea = (area: PreregArea): PreregArea => area;
