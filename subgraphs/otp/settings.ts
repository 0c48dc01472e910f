import { read, setting, type SettingValues } from '../../lib/settings.js';

/** The spec's platform.kernel.otp.* keys (MOSIP's defaults). */
export const otpSettings = {
  length: setting('PLATFORM_OTP_LENGTH', read.integer(4, 10), '6', 'spec key `platform.kernel.otp.default-length`: digits per OTP'),
  expirySeconds: setting('PLATFORM_OTP_EXPIRY_SECONDS', read.integer(1), '180', '`platform.kernel.otp.expiry-time`: OTP validity'),
  attemptThreshold: setting(
    'PLATFORM_OTP_ATTEMPT_THRESHOLD',
    read.integer(1),
    '10',
    '`platform.kernel.otp.validation-attempt-threshold`: wrong entries allowed; one more freezes the key',
  ),
  freezeSeconds: setting('PLATFORM_OTP_FREEZE_SECONDS', read.integer(1), '1800', 'how long a frozen key stays frozen'),
  keyMinLength: setting('PLATFORM_OTP_KEY_MIN_LENGTH', read.integer(1, 256), '3', '`platform.kernel.otp.key-min-length`: shortest key of `/otp/generate`'),
  keyMaxLength: setting('PLATFORM_OTP_KEY_MAX_LENGTH', read.integer(1, 256), '64', '`platform.kernel.otp.key-max-length`: longest key of `/otp/generate`'),
};

export type OtpSettings = SettingValues<typeof otpSettings>;
