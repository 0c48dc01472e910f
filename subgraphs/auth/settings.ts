import { read, setting, type SettingValues } from '../../lib/settings.js';

export const authSettings = {
  throttleAccount: setting(
    'PLATFORM_THROTTLE_ACCOUNT',
    read.integer(),
    '10',
    'failed logins per account per 15 minutes (and OTP sends per user); `0` turns it off',
  ),
  passwordMaxAgeDays: setting(
    'PLATFORM_PASSWORD_MAX_AGE_DAYS',
    read.integer(0, 36_500),
    '0',
    'days a password stays valid after it is set; then partner management refuses the account (PMS_PMP_003, PMS_PRT_004) until the user changes it (`changePassword`); `0`: passwords do not expire',
  ),
  throttleAddress: setting('PLATFORM_THROTTLE_ADDRESS', read.integer(), '120', 'login and OTP-send attempts per client address per minute; `0` turns it off'),
};

export type AuthSettings = SettingValues<typeof authSettings>;
