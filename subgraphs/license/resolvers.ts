import type { LicenseService } from './service.js';

type KeyArgs = { licenseKey: string; MISPId: string };

export function licenseResolvers(service: LicenseService) {
  return {
    Query: {
      licensePermissions: (_: unknown, args: KeyArgs) => service.permissions(args.licenseKey, args.MISPId),
      licenseKeys: (_: unknown, args: { MISPId?: string | null }) => service.list(args.MISPId),
      licensePermissionValues: () => service.permissionValues(),
    },
    Mutation: {
      generateLicenseKey: (_: unknown, args: { MISPId: string; licenseExpiryTime: string }) => service.generate(args.MISPId, args.licenseExpiryTime),
      mapLicensePermissions: (_: unknown, args: KeyArgs & { permissions: string[] }) => service.mapPermissions(args.licenseKey, args.MISPId, args.permissions),
      updateLicenseStatus: (_: unknown, args: { licenseKey: string; status: string }) => service.updateStatus(args.licenseKey, args.status),
    },
  };
}
