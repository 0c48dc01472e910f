import { read, setting, type SettingValues } from '../../lib/settings.js';

/** MOSIP's TSP license permissions. */
const DEFAULT_LICENSE_PERMISSIONS =
  'OTP Trigger,OTP Authentication,Demo Authentication,Biometric Authentication - FMR,Biometric Authentication - IIR,Biometric Authentication - FID,Static Pin Authentication,eKYC';

/** How many permission values a license key may carry at most: the bound of licensePermissionValues, licensePermissions and LicenseKey.permissions. */
export const MAX_LICENSE_PERMISSIONS = 64;

export const licenseSettings = {
  keyLength: setting('PLATFORM_LICENSE_KEY_LENGTH', read.integer(8, 128), '16', 'characters of a MISP license key (`[A-Za-z0-9]`, from a CSPRNG)'),
  permissions: setting(
    'PLATFORM_LICENSE_PERMISSIONS',
    read.list().refine((values) => values.length <= MAX_LICENSE_PERMISSIONS, { message: `at most ${MAX_LICENSE_PERMISSIONS} values` }),
    DEFAULT_LICENSE_PERMISSIONS,
    'comma-separated permission values a license key may carry (else `KER-LKM-003`)',
    "MOSIP's TSP permissions",
  ),
};

export type LicenseSettings = SettingValues<typeof licenseSettings>;
