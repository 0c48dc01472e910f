import type { Connection } from '../../lib/graph/connection.js';
import type { LicenseView } from './service.js';

export type LicenseKeyConnectionModel = Connection<LicenseView>;
/** A MISP as partner management refers to it: its id. */
export interface MispRef {
  id: string;
}

/** GraphQL type → the value its resolvers receive as parent (npm run codegen; paths from this folder). */
export const graphMappers = {
  LicenseKey: './service.js#LicenseView',
  LicenseKeyConnection: './graph-mappers.js#LicenseKeyConnectionModel',
  Misp: './graph-mappers.js#MispRef',
  User: '../../lib/graph/refs.js#UserRef',
};
