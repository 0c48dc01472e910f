import { access } from '../../../lib/roles.js';
import { defineArea } from '../area.js';
import { lockCodeFor } from '../errors.js';
import { locksSchemas } from './inputs.js';
import { locksResolvers } from './resolvers.js';
import { AuthTypeLockService, lockSettings } from './service.js';
import { LockStorage } from './storage.js';

declare module '../../../lib/deps.js' {
  interface PlatformServices {
    /** authentication-type locks of identities: residents lock their own, ID authentication reads them */
    authTypeLocks: AuthTypeLockService;
  }
}

const { roles } = access;

/**
 * Authentication-type locks: MOSIP lets only the resident change them (the
 * service keeps each to their own identity); the repository's operators and
 * ID authentication read any identity's state.
 */
export const locksArea = defineArea({
  name: 'locks',
  access: {
    'Mutation.updateAuthTypeStatus': roles('RESIDENT'),
    'Query.authTypeStatus': roles('RESIDENT', 'ID_REPOSITORY', 'ID_AUTHENTICATION'),
    'Identity.authTypeLocks': roles('GLOBAL_ADMIN', 'ID_REPOSITORY', 'ID_AUTHENTICATION'),
  },
  schemas: locksSchemas,
  codeFor: lockCodeFor,
  services: (deps) => ({
    authTypeLocks: new AuthTypeLockService(
      new LockStorage(deps.prisma),
      deps.clock,
      deps.services.identities,
      deps.services.vids,
      lockSettings(deps.globalConfiguration),
    ),
  }),
  resolvers: (deps) => locksResolvers(deps),
});
