import type { z } from 'zod';
import type { RequestContext } from '../../lib/context.js';
import { loader } from '../../lib/graph/loader.js';
import { nestedConnection } from '../../lib/graph/nested.js';
import { instantArgument } from '../../lib/graph/scalars.js';
import { DateTimeScalar } from '../../lib/graph/scalars.js';
import type { Resolvers } from '../../generated/graphql/license.js';
import type { licenseInputs } from './inputs.js';
import type { LicenseService } from './service.js';

/** The arguments as the input rules parsed them (a MISP id under either name reaches the rules as MISPId). */
type Parsed<F extends keyof typeof licenseInputs.schemas> = z.output<(typeof licenseInputs.schemas)[F]>;

export function licenseResolvers(service: LicenseService): Resolvers {
  const keyRef = (context: RequestContext) => loader(context, 'license.key', (ids: readonly string[]) => service.byIds(ids));
  const issued = (context: RequestContext) => loader(context, 'license.issuedBy', (ids: readonly string[]) => service.issuedBy(ids));
  return {
    DateTime: DateTimeScalar,
    Query: {
      licensePermissions: (_, args) => service.permissions(args.licenseKey, (args as Parsed<'licensePermissions'>).MISPId),
      licenseKeys: (_, args) => service.list(args, args.filter),
      licensePermissionValues: () => service.permissionValues(),
    },
    Mutation: {
      generateLicenseKey: async (_, args, context) =>
        service.generate(await context.principal(), (args as unknown as Parsed<'generateLicenseKey'>).MISPId, instantArgument(args.licenseExpiryTime)),
      mapLicensePermissions: (_, args) => service.mapPermissions(args.licenseKey, (args as Parsed<'mapLicensePermissions'>).MISPId, args.permissions),
      updateLicenseStatus: (_, args) => service.updateStatus(args.licenseKey, args.status),
    },
    LicenseKey: {
      __resolveReference: (ref, context) => keyRef(context)(ref.id),
      MISPId: (row) => row.mispId,
      mispId: (row) => row.mispId,
      licenseExpiryTime: (row) => row.expiresAt,
      createdBy: (row) => (row.createdBy ? { userId: row.createdBy } : null),
    },
    Misp: {
      __resolveReference: (ref) => ({ id: ref.id }),
      licenseKeys: (misp, args, context) => nestedConnection(context, 'license.mispKeys', args, misp.id, service.keysOfMisps(args.filter?.status ?? null)),
    },
    User: {
      __resolveReference: (ref) => ref,
      licenseKeysIssued: async (user, _, context) => (await issued(context)(user.userId)) ?? 0,
    },
  };
}
