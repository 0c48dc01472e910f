import { read, setting, type SettingValues } from '../../lib/settings.js';

export const masterdataSettings = {
  sampleData: setting(
    'PLATFORM_SAMPLE_DATA',
    read.oneOf(['true', 'false', 'auto']),
    'auto',
    'load the sample country (README, "Sample country") at start: `true`, `false`, or `auto` = when the embedded database has no master data yet',
  ),
};

export type MasterdataSettings = SettingValues<typeof masterdataSettings>;
