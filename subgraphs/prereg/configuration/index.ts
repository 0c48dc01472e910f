import path from 'node:path';
import { SHIPPED_CONFIG } from '../../../lib/global-configuration.js';
import { access } from '../../../lib/roles.js';
import { defineArea } from '../area.js';
import { preregCodeFor } from '../errors.js';
import { PreregConfiguration } from './service.js';

/** The configuration file shipped with the platform (config/prereg/prereg.properties). */
const SHIPPED_PREREG_CONFIG = path.join(SHIPPED_CONFIG, '..', 'prereg', 'prereg.properties');

declare module '../../../lib/deps.js' {
  interface PlatformServices {
    /** pre-registration's configuration file: the portal's keys and the booking and document rules */
    preregConfiguration: PreregConfiguration;
  }
}

/** The configuration the pre-registration portal reads before anyone signs in (spec: no authentication). */
export const configurationArea = defineArea({
  name: 'configuration',
  access: {
    'Query.preRegistrationConfiguration': access.PUBLIC,
    'Mutation.refreshPreRegistrationConfiguration': access.PUBLIC,
  },
  schemas: {},
  codeFor: preregCodeFor,
  services: (deps, settings) => ({ preregConfiguration: new PreregConfiguration(settings.configFile ?? SHIPPED_PREREG_CONFIG, deps.logger) }),
  resolvers: (deps) => {
    const configuration = deps.services.preregConfiguration;
    return {
      Query: { preRegistrationConfiguration: () => configuration.all() },
      Mutation: {
        refreshPreRegistrationConfiguration: async () => {
          await configuration.refresh();
          return 'success';
        },
      },
    };
  },
});
