import type { z } from 'zod';
import type { Resolvers } from '../../../generated/graphql/prereg.js';
import type { PlatformDeps } from '../../../lib/deps.js';
import type { applicationsSchemas } from './inputs.js';
import type { ApplicationModel } from './types.js';

type Parsed<F extends keyof typeof applicationsSchemas> = z.output<(typeof applicationsSchemas)[F]>;

/** The applications area's fields: each call acts as the caller, whose scope the service keeps. */
export function applicationsResolvers(deps: PlatformDeps): Resolvers {
  const applications = deps.services.preregApplications;
  return {
    Query: {
      preRegistration: async (_, args, context) => applications.get(await context.principal(), (args as Parsed<'preRegistration'>).preRegistrationId),
      preRegistrationPage: async (_, args, context) => {
        const { rows, total, pageIndex } = await applications.page(await context.principal(), (args as Parsed<'preRegistrationPage'>).pageIndex ?? 0);
        return { applications: rows, totalRecords: total, pageIndex };
      },
    },
    Mutation: {
      createPreRegistration: async (_, args, context) => {
        const { langCode, identity } = args as Parsed<'createPreRegistration'>;
        return applications.create(await context.principal(), { langCode, identity });
      },
      updatePreRegistration: async (_, args, context) => {
        const { preRegistrationId, langCode, identity } = args as Parsed<'updatePreRegistration'>;
        return applications.update(await context.principal(), preRegistrationId, { langCode, identity });
      },
      deletePreRegistration: async (_, args, context) =>
        applications.delete(await context.principal(), (args as Parsed<'deletePreRegistration'>).preRegistrationId),
      updatePreRegistrationStatus: async (_, args, context) => {
        const { preRegistrationId, statusCode } = args as Parsed<'updatePreRegistrationStatus'>;
        return applications.setStatus(await context.principal(), preRegistrationId, statusCode);
      },
    },
    Application: {
      // A reference from another subgraph is reached as the caller may reach it.
      __resolveReference: async (ref, context) => applications.reach(await context.principal(), ref.preRegistrationId, 'read'),
      preRegistrationId: (row) => row.id,
      createdDateTime: (row) => row.createdAt,
      updatedDateTime: (row) => row.updatedAt,
      demographicDetails: async (row: ApplicationModel) => ({ identity: row.identity ?? (await applications.identityOf(row)) }),
    },
    Viewer: {
      __resolveReference: (ref) => ({ id: ref.id }),
      // The caller's own only: another viewer's id gives nothing.
      preRegistrations: async (viewer, args, context) => applications.connectionOf(await context.principal(), viewer.id, args),
    },
  };
}
