import type { z } from 'zod';
import type { Resolvers } from '../../../generated/graphql/abis.js';
import type { PlatformDeps } from '../../../lib/deps.js';
import type { dataShareSchemas } from './inputs.js';

type Parsed<F extends keyof typeof dataShareSchemas> = z.output<(typeof dataShareSchemas)[F]>;

export function dataShareResolvers(deps: PlatformDeps): Resolvers {
  return {
    Query: {
      dataShare: (_, args) => {
        const { policyId, subscriberId, shareKey } = args as Parsed<'dataShare'>;
        return deps.services.dataShares.fetch(policyId, subscriberId, shareKey);
      },
    },
  };
}
