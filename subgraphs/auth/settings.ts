import { read, setting, type SettingValues } from '../../lib/settings.js';

export const authSettings = {
  throttleAccount: setting(
    'PLATFORM_THROTTLE_ACCOUNT',
    read.integer(),
    '10',
    'failed logins per account per 15 minutes (and OTP sends per user); `0` turns it off',
  ),
  throttleAddress: setting('PLATFORM_THROTTLE_ADDRESS', read.integer(), '120', 'login and OTP-send attempts per client address per minute; `0` turns it off'),
};

export type AuthSettings = SettingValues<typeof authSettings>;
