/** GraphQL type → the value its resolvers receive as parent, for the sync area's types (paths from subgraphs/prereg). */
export const syncMappers: Record<string, string> = {
  SyncedPreRegistration: './sync/types.js#SyncedPreRegistrationModel',
  PreRegistrationSync: './sync/types.js#PreRegistrationSyncModel',
  PreRegistrationArchive: './sync/types.js#PreRegistrationArchiveModel',
  ConsumedPreRegistrations: './sync/types.js#ConsumedPreRegistrationsModel',
};
