import type { Connection } from '../../lib/graph/connection.js';
import type { RegistrationRow, TransactionRow } from './registrations/storage.js';

export type RegistrationConnectionModel = Connection<RegistrationRow>;
/** The RIDs a resume took on; their registrations are read when asked. */
export interface ResumedModel {
  resumed: string[];
}
export type RegistrationTransactionConnectionModel = Connection<TransactionRow>;

/** GraphQL type → the value its resolvers receive as parent (npm run codegen; paths from this folder). */
export const graphMappers = {
  Registration: '../../generated/prisma/client.js#Registration',
  RegistrationTransaction: '../../generated/prisma/client.js#RegistrationTransaction',
  RegistrationConnection: './graph-mappers.js#RegistrationConnectionModel',
  RegistrationTransactionConnection: './graph-mappers.js#RegistrationTransactionConnectionModel',
  ManualVerification: '../../generated/prisma/client.js#ManualVerification',
  User: '../../lib/graph/refs.js#UserRef',
  RegistrationSyncResult: './registrations/sync-registrations.js#SyncResult',
  ResumedRegistrations: './graph-mappers.js#ResumedModel',
};
