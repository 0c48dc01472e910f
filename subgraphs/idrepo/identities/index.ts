import { access } from '../../../lib/roles.js';
import { defineArea } from '../area.js';
import { idrepoCodeFor } from '../errors.js';
import { uinRules } from '../../../lib/numbers.js';
import { leavePool } from '../uins/storage.js';
import { IdentityChecks } from './check-identity.js';
import { identitiesSchemas } from './inputs.js';
import { IdentityFiles } from './records.js';
import { identitiesResolvers } from './resolvers.js';
import { IdentityService } from './service.js';
import { IdentityStorage } from './storage.js';

declare module '../../../lib/deps.js' {
  interface PlatformServices {
    /** identities: create, read (audited), update */
    identities: IdentityService;
  }
}

const { roles } = access;
/** Who reads identities: ID authentication, and the processor for updates; ID_REPOSITORY are the repository's own operators. */
const READERS = roles('ID_AUTHENTICATION', 'REGISTRATION_PROCESSOR', 'ID_REPOSITORY');

/** Identities: the processor writes, ID authentication reads (MOSIP's roles); admins see status and audit trail. */
export const identitiesArea = defineArea({
  name: 'identities',
  access: {
    'Mutation.createIdentity': roles('REGISTRATION_PROCESSOR'),
    'Mutation.updateIdentity': roles('REGISTRATION_PROCESSOR'),
    'Query.identityByUin': READERS,
    'Query.identityByRid': READERS,
    'Query.identity': roles('GLOBAL_ADMIN', 'ID_REPOSITORY'),
    'Identity.__resolveReference': roles('GLOBAL_ADMIN', 'ID_REPOSITORY', 'REGISTRATION_PROCESSOR'),
    // The registration processor's operators follow a registration to its identity (status, times; demographics stay ID_REPOSITORY's).
    'Registration.__resolveReference': roles('GLOBAL_ADMIN', 'ID_REPOSITORY', 'REGISTRATION_PROCESSOR'),
    'Registration.identity': roles('GLOBAL_ADMIN', 'ID_REPOSITORY', 'REGISTRATION_PROCESSOR'),
    // the attributes only for the repository's operators, each read audited
    'Identity.demographics': roles('ID_REPOSITORY'),
    'Identity.reads': roles('GLOBAL_ADMIN', 'ID_REPOSITORY'),
    // Which registrations changed an identity: the repository's operators and the processor, as the identity itself.
    'Identity.registrations': roles('GLOBAL_ADMIN', 'ID_REPOSITORY', 'REGISTRATION_PROCESSOR'),
  },
  schemas: identitiesSchemas,
  codeFor: idrepoCodeFor,
  services: (deps) => {
    const { idrepoCipher: cipher, objectStore, idSchemas } = deps.services;
    // A stored identity's UIN leaves the pool in the same transaction.
    const store = new IdentityStorage(deps.prisma, leavePool);
    const checks = new IdentityChecks(idSchemas, uinRules(deps.globalConfiguration));
    return { identities: new IdentityService(store, deps.clock, cipher, new IdentityFiles(objectStore, cipher), checks) };
  },
  resolvers: (deps) => identitiesResolvers(deps),
});
