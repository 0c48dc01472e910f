import type { z } from 'zod';
import type { Resolvers } from '../../../generated/graphql/regproc.js';
import type { PlatformDeps } from '../../../lib/deps.js';
import { instantArgument } from '../../../lib/graph/scalars.js';
import { nestedConnection } from '../../../lib/graph/nested.js';
import type { registrationsSchemas } from './inputs.js';
import { registrationOf } from './loaders.js';

/** The arguments as the area's schemas have parsed them (the subgraph checks every call before it reaches a resolver). */
type Parsed<F extends keyof typeof registrationsSchemas> = z.output<(typeof registrationsSchemas)[F]>;

export function registrationsResolvers(deps: PlatformDeps): Resolvers {
  const registrations = deps.services.registrations;
  return {
    Query: {
      registrationStatuses: async (_, args, context) =>
        registrations.statuses(
          await context.principal(),
          (args as Parsed<'registrationStatuses'>).request.map((item) => item.registrationId),
        ),
      registrationTransactions: async (_, args, context) =>
        registrations.transactions(await context.principal(), (args as Parsed<'registrationTransactions'>).registrationId),
      registration: async (_, args, context) => registrations.registration(await context.principal(), (args as Parsed<'registration'>).registrationId),
      registrations: (_, args) => {
        const { filter, ...page } = args as Parsed<'registrations'>;
        return registrations.list(filter ?? {}, page);
      },
    },
    Mutation: {
      syncRegistrations: async (_, args, context) => {
        // timestamp, a DateTime, as the ISO text the service parses
        const { timestamp, ...rest } = args as Omit<Parsed<'syncRegistrations'>, 'timestamp'> & { timestamp: Date | string };
        return registrations.syncRegistrations(await context.principal(), { ...rest, timestamp: instantArgument(timestamp) });
      },
    },
    RegistrationSyncResult: {
      registrations: async (result, _, context) =>
        (await Promise.all(result.response.map((item) => registrationOf(deps, context, item.registrationId)))).filter((row) => row !== null),
    },
    Registration: {
      __resolveReference: (ref, context) => registrationOf(deps, context, ref.registrationId),
      registrationId: (row) => row.rid,
      parentRegistrationId: (row) => row.parentRid,
      centre: (row) => ({ id: row.centreId, langCode: row.langCode }),
      machine: (row) => ({ id: row.machineId, langCode: row.langCode }),
      transactions: (row, args, context) => nestedConnection(context, 'regproc.transactions', args, row.rid, registrations.transactionsOfRegistrations()),
    },
    RegistrationTransaction: {
      registrationId: (row) => row.rid,
    },
  };
}
