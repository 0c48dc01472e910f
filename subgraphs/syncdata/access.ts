import { access } from '../../lib/roles.js';

/** MOSIP's registration client roles, and the global admin. */
const SYNC_READERS = access.roles('REGISTRATION_OFFICER', 'REGISTRATION_SUPERVISOR', 'REGISTRATION_ADMIN', 'GLOBAL_ADMIN');

export const syncdataAccess = {
  'Query.syncConfigs': SYNC_READERS,
  'Query.syncRoles': SYNC_READERS,
  'Query.syncUserDetails': SYNC_READERS,
  'Query.clientSettings': SYNC_READERS,
};
