import type { z } from 'zod';
import type { Resolvers } from '../../../generated/graphql/idrepo.js';
import type { PlatformDeps } from '../../../lib/deps.js';
import { loader } from '../../../lib/graph/loader.js';
import { instantArgument } from '../../../lib/graph/scalars.js';
import { graphAuthType, graphModality, type locksSchemas } from './inputs.js';

/** The arguments as the area's schemas have parsed them (the subgraph checks every call before it reaches a resolver). */
type Parsed<F extends keyof typeof locksSchemas> = z.output<(typeof locksSchemas)[F]>;

export function locksResolvers(deps: PlatformDeps): Resolvers {
  const locks = deps.services.authTypeLocks;
  return {
    Query: {
      authTypeStatus: async (_, args, context) => {
        const { individualId, individualIdType } = args as Parsed<'authTypeStatus'>;
        return locks.status(await context.principal(), individualId, individualIdType);
      },
    },
    Mutation: {
      updateAuthTypeStatus: async (_, args, context) => {
        // requestTime, a DateTime, as the ISO text the service parses; absent stays absent
        const { requestTime, ...rest } = args as Omit<Parsed<'updateAuthTypeStatus'>, 'requestTime'> & { requestTime?: Date | string | null };
        return locks.update(await context.principal(), { ...rest, requestTime: instantArgument(requestTime) });
      },
    },
    AuthTypeStatus: {
      authType: (state) => graphAuthType(state.authType),
      authSubType: (state) => (state.authSubType ? graphModality(state.authSubType) : null),
    },
    Identity: {
      authTypeLocks: async (row, _, context) =>
        (await loader(context, 'idrepo.authTypeLocks', (ids: readonly string[]) => locks.byIdentities(ids))(row.id)) ?? [],
    },
  };
}
