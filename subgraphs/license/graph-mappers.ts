import type { Connection } from '../../lib/graph/connection.js';
import type { LicenseView } from './service.js';

export type LicenseKeyConnectionModel = Connection<LicenseView>;

/** GraphQL type → the value its resolvers receive as parent (npm run codegen; paths from this folder). */
export const graphMappers = {
  LicenseKey: './service.js#LicenseView',
  LicenseKeyConnection: './graph-mappers.js#LicenseKeyConnectionModel',
  User: '../../lib/graph/refs.js#UserRef',
};
