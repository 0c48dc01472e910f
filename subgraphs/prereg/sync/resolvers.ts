import type { z } from 'zod';
import type { Resolvers } from '../../../generated/graphql/prereg.js';
import type { PlatformDeps } from '../../../lib/deps.js';
import type { syncSchemas } from './inputs.js';

type Parsed<F extends keyof typeof syncSchemas> = z.output<(typeof syncSchemas)[F]>;

/** The sync area's fields: each acts as the caller, whose centre (or zones) the services check. */
export function syncResolvers(deps: PlatformDeps): Resolvers {
  const { preregSync: sync, preregArchives: archives } = deps.services;
  return {
    Query: {
      preRegistrationSync: async (_, args, context) => sync.list(await context.principal(), args as Parsed<'preRegistrationSync'>),
      preRegistrationForMachine: async (_, args, context) => {
        const { preRegistrationId, machineId } = args as Parsed<'preRegistrationForMachine'>;
        return archives.forMachine(await context.principal(), preRegistrationId, machineId);
      },
      preRegistrationArchive: async (_, args, context) =>
        archives.forAdmin(await context.principal(), (args as Parsed<'preRegistrationArchive'>).preRegistrationId),
    },
    Mutation: {
      reportConsumedPreRegistrations: async (_, args, context) =>
        sync.report(await context.principal(), (args as Parsed<'reportConsumedPreRegistrations'>).preRegistrationIds),
    },
  };
}
