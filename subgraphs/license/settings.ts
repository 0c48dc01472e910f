import { read, setting, type SettingValues } from '../../lib/settings.js';

/** MOSIP's TSP license permissions. */
const DEFAULT_LICENSE_PERMISSIONS =
  'OTP Trigger,OTP Authentication,Demo Authentication,Biometric Authentication - FMR,Biometric Authentication - IIR,Biometric Authentication - FID,Static Pin Authentication,eKYC';

export const licenseSettings = {
  keyLength: setting('PLATFORM_LICENSE_KEY_LENGTH', read.integer(8, 128), '16', 'characters of a MISP license key (`[A-Za-z0-9]`, from a CSPRNG)'),
  permissions: setting(
    'PLATFORM_LICENSE_PERMISSIONS',
    read.list(),
    DEFAULT_LICENSE_PERMISSIONS,
    'comma-separated permission values a license key may carry (else `KER-LKM-003`)',
    "MOSIP's TSP permissions",
  ),
};

export type LicenseSettings = SettingValues<typeof licenseSettings>;
