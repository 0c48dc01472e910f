import { DateTimeScalar, instantArgument } from '../../lib/graph/scalars.js';
import type { Resolvers } from '../../generated/graphql/syncdata.js';
import type { SyncDataService } from './service.js';

export function syncdataResolvers(service: SyncDataService): Resolvers {
  return {
    DateTime: DateTimeScalar,
    Query: {
      syncConfigs: () => service.configs(),
      syncRoles: () => service.roles(),
      syncUserDetails: async (_, args, context) => service.userDetails(await context.principal(), args.regCenterId),
      clientSettings: async (_, args, context) =>
        service.clientSettings(await context.principal(), args.keyIndex, instantArgument(args.lastUpdated), args.regCenterId),
    },
  };
}
