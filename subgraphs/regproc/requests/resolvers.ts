import type { z } from 'zod';
import type { Resolvers } from '../../../generated/graphql/regproc.js';
import type { PlatformDeps } from '../../../lib/deps.js';
import { registrationOf } from '../registrations/loaders.js';
import type { requestsSchemas } from './inputs.js';

type Parsed<F extends keyof typeof requestsSchemas> = z.output<(typeof requestsSchemas)[F]>;

export function requestsResolvers(deps: PlatformDeps): Resolvers {
  const requests = deps.services.registrationRequests;
  return {
    Query: {
      biometricFile: async (_, args, context) => requests.biometricFile(await context.principal(), (args as Parsed<'biometricFile'>).referenceId),
    },
    Mutation: {
      generatePacket: async (_, args, context) => requests.packetGenerator(await context.principal(), (args as Parsed<'generatePacket'>).input),
      requestReprint: async (_, args, context) => requests.reprint(await context.principal(), (args as Parsed<'requestReprint'>).input),
      securezoneNotice: (_, args) => requests.securezone((args as Parsed<'securezoneNotice'>).input),
    },
    GeneratedRegistration: {
      registration: (row, _, context) => registrationOf(deps, context, row.registrationId),
    },
  };
}
