import { z } from 'zod';
import { access } from '../../../lib/roles.js';
import { defineArea } from '../area.js';
import { idrepoCodeFor } from '../errors.js';

/** The UIN pool: the registration processor draws UINs; admins see how full it is. */
export const uinsArea = defineArea({
  name: 'uins',
  access: {
    'Mutation.drawUin': access.roles('REGISTRATION_PROCESSOR'),
    'Query.uinPool': access.roles('GLOBAL_ADMIN', 'ID_REPOSITORY'),
  },
  schemas: { drawUin: z.object({}), uinPool: z.object({}) },
  codeFor: idrepoCodeFor,
  services: () => ({}),
  resolvers: (deps) => ({
    Query: {
      uinPool: async () => ({ unused: await deps.services.uinPool.unused(), ...deps.services.uinPool.limits }),
    },
    Mutation: {
      drawUin: async () => ({ uin: await deps.services.uinPool.draw() }),
    },
  }),
});
