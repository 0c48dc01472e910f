import { access } from '../../../lib/roles.js';
import { defineArea } from '../area.js';
import { idrepoCodeFor } from '../errors.js';
import { uinRules } from '../../../lib/numbers.js';
import { uinsSchemas } from './inputs.js';
import { uinsResolvers } from './resolvers.js';
import { poolSize, UinPool } from './service.js';
import { UinPoolStorage } from './storage.js';

declare module '../../../lib/deps.js' {
  interface PlatformServices {
    /** UINs generated ahead for the registration processor */
    uinPool: UinPool;
  }
}

/** The UIN pool: the registration processor draws UINs; admins see how full it is. */
export const uinsArea = defineArea({
  name: 'uins',
  access: {
    'Mutation.drawUin': access.roles('REGISTRATION_PROCESSOR'),
    'Query.uinPool': access.roles('GLOBAL_ADMIN', 'ID_REPOSITORY'),
  },
  schemas: uinsSchemas,
  codeFor: idrepoCodeFor,
  services: (deps, settings) => {
    const global = deps.globalConfiguration;
    const logger = deps.logger.child({ component: 'uin-pool' });
    return {
      uinPool: new UinPool(
        new UinPoolStorage(deps.prisma),
        deps.clock,
        deps.services.idrepoCipher,
        uinRules(global),
        poolSize(settings, global),
        logger,
        deps.jobs,
      ),
    };
  },
  resolvers: (deps) => uinsResolvers(deps),
});
