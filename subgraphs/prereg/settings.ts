import { read, setting, type SettingValues } from '../../lib/settings.js';

export const preregSettings = {
  configFile: setting(
    'PREREG_CONFIG_FILE',
    read.optionalText(),
    undefined,
    "pre-registration's configuration (Java properties): every key GET /preregistration/v1/login/config serves, and the booking and document rules (`preregistration.*`); read at start and by refreshconfig",
    'the file shipped in `config/prereg/prereg.properties`',
  ),
  clamdUrl: setting(
    'CLAMD_URL',
    read.optionalText(),
    undefined,
    "the same clamd as the registration processor's: every uploaded pre-registration document is scanned before it is stored (`PRG_PAM_DOC_010` when infected or when the scan fails); unset: documents are not scanned",
  ),
  clamdTimeoutMs: setting(
    'CLAMD_TIMEOUT_MS',
    read.integer(100),
    '30000',
    'how long the scan of one pre-registration document may take (`PRG_PAM_DOC_010` beyond)',
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
