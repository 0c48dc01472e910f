import type { z } from 'zod';
import type { RegistrationStage, RegistrationStatus, Resolvers } from '../../../generated/graphql/regproc.js';
import type { PlatformDeps } from '../../../lib/deps.js';
import { loader } from '../../../lib/graph/loader.js';
import type { pipelineSchemas } from './inputs.js';

type Parsed<F extends keyof typeof pipelineSchemas> = z.output<(typeof pipelineSchemas)[F]>;

export function pipelineResolvers(deps: PlatformDeps): Resolvers {
  const services = deps.services;
  return {
    Query: {
      stuckRegistrations: (_, args) => {
        const { stage, first, after } = args as Parsed<'stuckRegistrations'>;
        return services.pipeline.stuck(stage ?? null, { first, after });
      },
      // The stored stage and status are the enums' values (the pipeline writes no other).
      registrationCounts: async () =>
        (await services.pipeline.countsByStage()).map((row) => ({
          ...row,
          stage: row.stage as RegistrationStage | null,
          status: row.status as RegistrationStatus,
        })),
    },
    Mutation: {
      receiveRegistrationPacket: async (_, args, context) =>
        services.packetReceiver.receive(await context.principal(), (args as Parsed<'receiveRegistrationPacket'>).input),
      resumeRegistrations: async (_, args, context) => {
        const { registrationId, stage } = (args as Parsed<'resumeRegistrations'>).input;
        const admin = (await context.principal()).subject;
        return { resumed: await services.pipeline.resume(admin, registrationId ? { rid: registrationId } : { stage: stage! }) };
      },
      assignManualVerification: async (_, args, context) =>
        services.manualVerification.assign(await context.principal(), args as Parsed<'assignManualVerification'>),
      decideManualVerification: async (_, args, context) =>
        services.manualVerification.decide(await context.principal(), (args as Parsed<'decideManualVerification'>).input),
    },
    Registration: {
      manualVerifications: async (row, _, context) =>
        services.manualVerification.listed(
          (await loader(context, 'regproc.manualVerifications', (rids: readonly string[]) => services.manualVerification.matchesByRids(rids))(row.rid)) ?? [],
        ),
    },
    ManualVerification: {
      matchedRegId: (row) => row.matchedRid,
      statusCode: (row) => row.status,
      mvUsrId: (row) => row.assignedTo,
    },
  };
}
