import { PlatformError } from '../../lib/errors.js';

/** The license key manager's codes (spec Document 1, KER-LKM). */
export const licenseErrors = {
  emptyMisp: () => new PlatformError('KER-LKM-001', 'TSP entered is null or empty'),
  permissionNotAccepted: (permission: string) => new PlatformError('KER-LKM-003', `Permission value entered is not accepted: ${permission}`),
  notFound: () => new PlatformError('KER-LKM-004', 'LicenseKey Not Found'),
  expired: () => new PlatformError('KER-LKM-005', 'LicenseKey Expired'),
  emptyKey: () => new PlatformError('KER-LKM-006', 'License Key entered is null or empty'),
  emptyPermission: () => new PlatformError('KER-LKM-007', 'Permission entered is an empty string'),
  expiryInPast: () => new PlatformError('KER-LKM-008', 'Expiry DateTime should be ahead of current DateTime'),
  noPermissions: () => new PlatformError('KER-LKM-009', 'No permissions mapped to the TSP-LicenseKey pair'),
  badStatus: (status: string) => new PlatformError('KER-LKM-010', `Status must be ACTIVE, SUSPENDED or BLOCKED, not ${status}`),
  badExpiry: () => new PlatformError('KER-LKM-011', "licenseExpiryTime must be an ISO 8601 timestamp (yyyy-MM-dd'T'HH:mm:ss.SSS'Z')"),
  notUsable: (status: string) => new PlatformError('KER-LKM-012', `LicenseKey is ${status}`),
};
