import { read, setting, type SettingValues } from '../../lib/settings.js';

export const idrepoSettings = {
  vidPolicyFile: setting(
    'PLATFORM_VID_POLICY_FILE',
    read.optionalText(),
    undefined,
    "a VID policy in MOSIP's `vid_policy.json` layout (per VID type: instancesAllowed, validForInMinutes, transactionsAllowed, autoRestoreAllowed, restoreOnAction); read at start",
    "MOSIP's policy: Perpetual (1, no expiry, auto-restore), Temporary (5, 30 minutes, 1 transaction)",
  ),
  uinPoolSize: setting(
    'PLATFORM_UIN_POOL_SIZE',
    read.integer(1, 10_000_000).optional(),
    undefined,
    'unused UINs the pool is filled up to in the background',
    '`platform.kernel.uin.uins-to-generate` of the global configuration (200000)',
  ),
  uinPoolFillPercent: setting(
    'PLATFORM_UIN_POOL_FILL_PERCENT',
    read.integer(1, 100),
    '20',
    'the share of one core (in %) the background fill of the UIN pool may take: it rests between batches so that requests beside it are not slowed; `100` fills without resting',
  ),
  uinPoolThreshold: setting(
    'PLATFORM_UIN_POOL_THRESHOLD',
    read.integer(0, 10_000_000).optional(),
    undefined,
    'below this many unused UINs the pool is filled again',
    '`platform.kernel.uin.min-unused-threshold` of the global configuration (100000)',
  ),
};

export type IdrepoSettings = SettingValues<typeof idrepoSettings>;
