import type { Resolvers } from '../../generated/graphql/masterdata.js';
import type { Area } from '../areas.js';

/** One area of master data (ID schema, holidays, documents, devices, centres). */
export type MasterdataArea = Area<Resolvers>;

export const defineArea = (area: MasterdataArea): MasterdataArea => area;
