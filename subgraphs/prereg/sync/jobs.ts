import type { JobDefinitions } from '../../../lib/jobs/types.js';
import type { PlatformDeps } from '../../../lib/deps.js';
import type { PreregSettings } from '../settings.js';

/** Sync's jobs. */
export const syncJobs = (_deps: PlatformDeps, _settings: PreregSettings): JobDefinitions => ({});
