import { read, setting, type SettingValues } from '../../lib/settings.js';

export const notifySettings = {
  smtpUrl: setting(
    'SMTP_URL',
    read.optionalUrl('smtp', 'smtps'),
    undefined,
    'e.g. `smtp://user:pass@mail.example.org:587`: e-mail is sent through it (nodemailer); unset: e-mail goes to the outbox',
  ),
  mailFrom: setting('MAIL_FROM', read.text(), 'identity-platform@localhost', 'sender address of e-mail'),
  smsGatewayUrl: setting(
    'SMS_GATEWAY_URL',
    read.optionalUrl('http', 'https'),
    undefined,
    'HTTP endpoint receiving `POST {"number","message"}` (JSON) per SMS; unset: SMS goes to the outbox',
  ),
  smsNumberLength: setting('PLATFORM_SMS_NUMBER_LENGTH', read.integer(4, 20), '10', 'spec key `platform.kernel.sms.number.length`: digits of an SMS number'),
  maxAttempts: setting('PLATFORM_NOTIFY_MAX_ATTEMPTS', read.integer(1), '5', 'delivery attempts before a message is marked `FAILED`'),
  retryBaseSeconds: setting('PLATFORM_NOTIFY_RETRY_SECONDS', read.integer(1), '30', 'first retry delay (a job on any runner); doubles per attempt'),
  purgeEveryMs: setting(
    'PLATFORM_NOTIFY_SWEEP_MS',
    read.integer(10),
    '5000',
    'how often recipients and bodies past the retention time are dropped (a recurring job)',
  ),
  outboxRetentionHours: setting(
    'PLATFORM_OUTBOX_RETENTION_HOURS',
    read.integer(1),
    '24',
    'how long an undelivered message keeps its (sealed) recipients and body, and any message the look-up keys it is found by recipient with',
  ),
};

export type NotifySettings = SettingValues<typeof notifySettings>;
