import type { Connection } from '../../lib/graph/connection.js';
import type { AbisRequestRow } from './requests/storage.js';

export type AbisRequestConnectionModel = Connection<AbisRequestRow>;

/** GraphQL type → the value its resolvers receive as parent (npm run codegen; paths from this folder). */
export const graphMappers = {
  AbisRequest: '../../generated/prisma/client.js#AbisRequest',
  AbisRequestConnection: './graph-mappers.js#AbisRequestConnectionModel',
  AbisSystem: './requests/operator.js#AbisSystemView',
  Registration: '../../lib/graph/refs.js#RegistrationRef',
};
