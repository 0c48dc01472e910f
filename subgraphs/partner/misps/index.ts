import { MISP_ADMINS } from '../access.js';
import { defineArea } from '../area.js';
import { codeFor } from '../inputs.js';
import { mispsSchemas } from './inputs.js';
import { mispsResolvers } from './resolvers.js';
import { MispService } from './service.js';
import { mispsStorage } from './storage.js';

declare module '../../../lib/deps.js' {
  interface PlatformServices {
    /** MISPs: registration, approval (license keys), status */
    misps: MispService;
  }
}

/** MISP administration: registration, decisions, license keys. */
export const mispsArea = defineArea({
  name: 'misps',
  desk: 'misp',
  access: {
    'Query.misp': MISP_ADMINS,
    'Query.mispsByName': MISP_ADMINS,
    'Query.allMisps': MISP_ADMINS,
    'Query.mispLicense': MISP_ADMINS,
    'Query.misps': MISP_ADMINS,
    'Mutation.createMisp': MISP_ADMINS,
    'Mutation.decideMisp': MISP_ADMINS,
    'Mutation.setMispActive': MISP_ADMINS,
    'Mutation.updateMisp': MISP_ADMINS,
    'Mutation.validateMispLicense': MISP_ADMINS,
    'Mutation.regenerateMispLicense': MISP_ADMINS,
    'Misp.__resolveReference': MISP_ADMINS,
  },
  schemas: mispsSchemas,
  codeFor,
  services: (deps, settings) => ({ misps: new MispService(mispsStorage(deps.prisma), deps.clock, deps.services.license, settings, deps.events) }),
  resolvers: mispsResolvers,
});
