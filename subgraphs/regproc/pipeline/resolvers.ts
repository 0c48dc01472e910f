import type { z } from 'zod';
import type { ManualVerificationStatus, RegistrationStage, RegistrationStatus, Resolvers } from '../../../generated/graphql/regproc.js';
import type { PlatformDeps } from '../../../lib/deps.js';
import type { RequestContext } from '../../../lib/context.js';
import { loader } from '../../../lib/graph/loader.js';
import { registrationOf as linkedRegistration } from '../registrations/loaders.js';
import type { pipelineSchemas } from './inputs.js';

type Parsed<F extends keyof typeof pipelineSchemas> = z.output<(typeof pipelineSchemas)[F]>;

/** A user as the graph links one (the auth component resolves the rest). */
const userRef = (userId: string | null) => (userId ? { userId } : null);

export function pipelineResolvers(deps: PlatformDeps): Resolvers {
  const services = deps.services;
  const registrationOf = (context: RequestContext, rid: string) => linkedRegistration(deps, context, rid);
  // One query for the possible duplicates of a page of registrations.
  const matchesOf = async (context: RequestContext, rid: string) =>
    (await loader(context, 'regproc.manualVerifications', (rids: readonly string[]) => services.manualVerification.matchesByRids(rids))(rid)) ?? [];
  return {
    Query: {
      stuckRegistrations: (_, args) => {
        const { stage, ...page } = args as Parsed<'stuckRegistrations'>;
        return services.pipeline.stuck(stage ?? null, page);
      },
      // The stored stage and status are the enums' values (the pipeline writes no other).
      registrationCounts: async () =>
        (await services.pipeline.countsByStage()).map((row) => ({
          ...row,
          stage: row.stage as RegistrationStage | null,
          status: row.status as RegistrationStatus,
        })),
      manualVerifications: async (_, args, context) => {
        const { filter, ...page } = args as Parsed<'manualVerifications'>;
        return services.manualVerification.queue(await context.principal(), filter ?? {}, page);
      },
    },
    Mutation: {
      receiveRegistrationPacket: async (_, args, context) =>
        services.packetReceiver.receive(await context.principal(), (args as Parsed<'receiveRegistrationPacket'>).input),
      resumeRegistrations: async (_, args, context) => {
        const { registrationId, stage } = (args as Parsed<'resumeRegistrations'>).input;
        const admin = (await context.principal()).subject;
        return { resumed: await services.pipeline.resume(admin, registrationId ? { rid: registrationId } : { stage: stage! }) };
      },
      assignManualVerification: async (_, args, context) => services.manualVerification.assign(await context.principal(), args),
      decideManualVerification: async (_, args, context) =>
        services.manualVerification.decide(await context.principal(), (args as Parsed<'decideManualVerification'>).input),
      adjudicateRegistration: async (_, args, context) => services.manualVerification.adjudicate(await context.principal(), args),
    },
    Registration: {
      manualVerifications: async (row, _, context) => services.manualVerification.listed(await matchesOf(context, row.rid)),
      assignee: async (row, _, context) => userRef(services.manualVerification.assigneeOf(await matchesOf(context, row.rid))),
    },
    // Read only when asked, batched with every other registration of the request.
    ResumedRegistrations: {
      registrations: async (result, _, context) => (await Promise.all(result.resumed.map((rid) => registrationOf(context, rid)))).filter((row) => row !== null),
    },
    ReceivedPacket: {
      registration: (row, _, context) => registrationOf(context, row.registrationId),
    },
    ManualVerificationDecision: {
      registration: (row, _, context) => registrationOf(context, row.regId),
    },
    ManualVerification: {
      matchedRegId: (row) => row.matchedRid,
      matchedRegistration: (row, _, context) => registrationOf(context, row.matchedRid),
      statusCode: (row) => row.status,
      // The pipeline writes no other status than the enum's.
      status: (row) => row.status as ManualVerificationStatus,
      mvUsrId: (row) => row.assignedTo,
      assignee: (row) => userRef(row.assignedTo),
    },
  };
}
