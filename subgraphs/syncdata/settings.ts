import { read, setting, type SettingValues } from '../../lib/settings.js';

export const syncdataSettings = {
  registrationConfigFile: setting(
    'PLATFORM_SYNC_REGISTRATION_CONFIG',
    read.optionalText(),
    undefined,
    'the registration client configuration of `GET /v1/syncdata/configs` (`registrationConfiguration`): a `.properties` or JSON file holding every key of the spec; read once at start',
    '`config/syncdata/registration.properties` (in the repository)',
  ),
};

export type SyncdataSettings = SettingValues<typeof syncdataSettings>;
