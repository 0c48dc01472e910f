import { read, setting, type SettingValues } from '../../lib/settings.js';

export const preregSettings = {
  configFile: setting(
    'PREREG_CONFIG_FILE',
    read.optionalText(),
    undefined,
    "pre-registration's configuration (Java properties): every key GET /preregistration/v1/login/config serves, and the booking and document rules (`preregistration.*`); read at start and by refreshconfig",
    'the file shipped in `config/prereg/prereg.properties`',
  ),
  expiryEveryMinutes: setting(
    'PREREG_EXPIRY_EVERY_MINUTES',
    read.integer(1, 1440),
    '60',
    'how often the job runs that moves bookings whose day has passed to Expired',
  ),
  consumedMoveEveryMinutes: setting(
    'PREREG_CONSUMED_EVERY_MINUTES',
    read.integer(1, 1440),
    '10',
    'how often the job runs that moves consumed applications to the consumed history',
  ),
};

export type PreregSettings = SettingValues<typeof preregSettings>;
