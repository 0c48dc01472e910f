import { read, setting, type SettingValues } from '../../lib/settings.js';

export const partnerSettings = {
  mispLicenseDays: setting('PLATFORM_MISP_LICENSE_DAYS', read.integer(1, 3650), '365', 'days a MISP license key issued on approval stays valid'),
  apiKeyDays: setting('PLATFORM_PARTNER_API_KEY_DAYS', read.integer(1, 3650), '365', 'days a partner API key issued on approval stays valid'),
};

export type PartnerSettings = SettingValues<typeof partnerSettings>;
