import { access } from '../../lib/roles.js';

const { roles } = access;
/** Who reads identities: ID authentication, and the processor for updates; ID_REPOSITORY are the repository's own operators. */
const READERS = roles('ID_AUTHENTICATION', 'REGISTRATION_PROCESSOR', 'ID_REPOSITORY');

/** The ID repository's role rows (modelled on MOSIP's: the processor writes, ID authentication reads). */
export const idrepoAccess = {
  'Mutation.createIdentity': roles('REGISTRATION_PROCESSOR'),
  'Mutation.updateIdentity': roles('REGISTRATION_PROCESSOR'),
  'Query.identityByUin': READERS,
  'Query.identityByRid': READERS,
  // the portal: admins see status and audit trail; demographics only for the repository's operators
  'Query.identity': roles('GLOBAL_ADMIN', 'ID_REPOSITORY'),
  'Identity.__resolveReference': roles('GLOBAL_ADMIN', 'ID_REPOSITORY', 'REGISTRATION_PROCESSOR'),
  'Identity.demographics': roles('ID_REPOSITORY'),
  'Identity.reads': roles('GLOBAL_ADMIN', 'ID_REPOSITORY'),
};
