import { read, setting, type SettingValues } from '../../lib/settings.js';

/** The ABIS component's settings (the data share; the queue's come with the requests). */
export const abisSettings = {
  partnerId: setting(
    'ABIS_PARTNER_ID',
    read.text(),
    'partner-default-abis',
    "the ABIS's partner id: its data shares are encrypted for this partner's uploaded certificate (applicationId PARTNER)",
  ),
  policyId: setting('ABIS_POLICY_ID', read.text(), 'policy-default-abis', 'the policy id in data share addresses'),
  dataShareLayout: setting(
    'ABIS_DATASHARE_LAYOUT',
    read.oneOf(['VER_R2', 'LEGACY']),
    'VER_R2',
    "the data share's encryption layout: MOSIP 1.2's `VER_R2` or 1.1's `LEGACY`",
  ),
  dataShareValidMinutes: setting(
    'ABIS_DATASHARE_VALID_MINUTES',
    read.integer(1),
    '60',
    'how long a data share can be fetched (longer than the queue message TTL)',
  ),
  dataShareTransactions: setting(
    'ABIS_DATASHARE_TRANSACTIONS_ALLOWED',
    read.integer(-1),
    '-1',
    'how many times a data share can be fetched (`-1`: until it expires)',
  ),
};

export type AbisSettings = SettingValues<typeof abisSettings>;
