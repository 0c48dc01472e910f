import type { IdentityReadAudit } from '../../generated/prisma/client.js';
import type { Connection } from '../../lib/graph/connection.js';
import { vidsMappers } from './vids/graph-mappers.js';

export type IdentityReadConnectionModel = Connection<IdentityReadAudit>;

/** GraphQL type → the value its resolvers receive as parent (npm run codegen; paths from this folder). */
export const graphMappers = {
  AuthTypeStatus: './locks/service.js#AuthTypeState',
  Identity: '../../generated/prisma/client.js#Identity',
  IdentityRecord: './identities/service.js#IdentityRecord',
  IdentityRead: '../../generated/prisma/client.js#IdentityReadAudit',
  IdentityReadConnection: './graph-mappers.js#IdentityReadConnectionModel',
  User: '../../lib/graph/refs.js#UserRef',
  ...vidsMappers,
};
