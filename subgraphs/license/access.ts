import { access } from '../../lib/roles.js';

/**
 * MISP admins (partner management's MISP desk: GLOBAL_ADMIN, PARTNER_ADMIN)
 * issue, map, switch and list MISP license keys; a partner manager, whose
 * scope is its policy groups' partners, reaches none of them.
 */
const LICENSE_ADMINS = access.roles('GLOBAL_ADMIN', 'PARTNER_ADMIN');

/** MOSIP's partner and admin roles; ID authentication and MISPs read the permissions of a key they hold. */
export const licenseAccess = {
  'Mutation.generateLicenseKey': LICENSE_ADMINS,
  'Mutation.mapLicensePermissions': LICENSE_ADMINS,
  'Mutation.updateLicenseStatus': LICENSE_ADMINS,
  'Query.licensePermissions': access.roles('GLOBAL_ADMIN', 'PARTNER_ADMIN', 'MISP', 'ID_AUTHENTICATION'),
  'Query.licenseKeys': LICENSE_ADMINS,
  'Query.licensePermissionValues': access.AUTHENTICATED,
  'LicenseKey.__resolveReference': LICENSE_ADMINS,
  'User.licenseKeysIssued': LICENSE_ADMINS,
  'Misp.licenseKeys': LICENSE_ADMINS,
};
