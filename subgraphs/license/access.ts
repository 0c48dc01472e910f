import { access } from '../../lib/roles.js';

const LICENSE_ADMINS = access.roles('GLOBAL_ADMIN', 'PARTNER_ADMIN', 'PARTNERMANAGER');

/** MOSIP's partner and admin roles; ID authentication reads permissions. */
export const licenseAccess = {
  'Mutation.generateLicenseKey': LICENSE_ADMINS,
  'Mutation.mapLicensePermissions': LICENSE_ADMINS,
  'Mutation.updateLicenseStatus': LICENSE_ADMINS,
  'Query.licensePermissions': access.roles('GLOBAL_ADMIN', 'PARTNER_ADMIN', 'PARTNERMANAGER', 'MISP', 'ID_AUTHENTICATION'),
  'Query.licenseKeys': LICENSE_ADMINS,
  'Query.licensePermissionValues': access.AUTHENTICATED,
  'LicenseKey.__resolveReference': LICENSE_ADMINS,
  'User.licenseKeysIssued': LICENSE_ADMINS,
  'Misp.licenseKeys': LICENSE_ADMINS,
};
