import type { Resolvers } from '../../../generated/graphql/idrepo.js';
import type { PlatformDeps } from '../../../lib/deps.js';

export function uinsResolvers(deps: PlatformDeps): Resolvers {
  const pool = deps.services.uinPool;
  return {
    Query: {
      uinPool: async () => ({ unused: await pool.unused(), ...pool.limits }),
    },
    Mutation: {
      drawUin: async () => ({ uin: await pool.draw() }),
    },
  };
}
