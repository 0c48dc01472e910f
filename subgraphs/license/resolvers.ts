import type { RequestContext } from '../../lib/context.js';
import type { PageArgs } from '../../lib/graph/connection.js';
import { loader } from '../../lib/graph/loader.js';
import { DateTimeScalar } from '../../lib/graph/scalars.js';
import type { LicenseService, LicenseView } from './service.js';

type KeyArgs = { licenseKey: string; MISPId: string };

export function licenseResolvers(service: LicenseService) {
  const keyRef = (context: RequestContext) => loader(context, 'license.key', (ids: readonly string[]) => service.byIds(ids));
  const issued = (context: RequestContext) => loader(context, 'license.issuedBy', (ids: readonly string[]) => service.issuedBy(ids));
  return {
    DateTime: DateTimeScalar,
    Query: {
      licensePermissions: (_: unknown, args: KeyArgs) => service.permissions(args.licenseKey, args.MISPId),
      licenseKeys: (_: unknown, args: PageArgs & { filter?: { MISPId?: string | null; status?: string | null } | null }) => service.list(args, args.filter),
      licensePermissionValues: () => service.permissionValues(),
    },
    Mutation: {
      generateLicenseKey: async (_: unknown, args: { MISPId: string; licenseExpiryTime: string }, context: RequestContext) =>
        service.generate(await context.principal(), args.MISPId, args.licenseExpiryTime),
      mapLicensePermissions: (_: unknown, args: KeyArgs & { permissions: string[] }) => service.mapPermissions(args.licenseKey, args.MISPId, args.permissions),
      updateLicenseStatus: (_: unknown, args: { licenseKey: string; status: string }) => service.updateStatus(args.licenseKey, args.status),
    },
    LicenseKey: {
      __resolveReference: (ref: { id: string }, context: RequestContext) => keyRef(context)(ref.id),
      MISPId: (row: LicenseView) => row.mispId,
      licenseExpiryTime: (row: LicenseView) => row.expiresAt,
      createdBy: (row: LicenseView) => (row.createdBy ? { userId: row.createdBy } : null),
    },
    User: {
      __resolveReference: (ref: { userId: string }) => ref,
      licenseKeysIssued: async (user: { userId: string }, _: unknown, context: RequestContext) => (await issued(context)(user.userId)) ?? 0,
    },
  };
}
