import type { JobDefinitions } from '../../../lib/jobs/types.js';
import type { PlatformDeps } from '../../../lib/deps.js';
import type { PreregSettings } from '../settings.js';

/** Booking's jobs. */
export const bookingJobs = (_deps: PlatformDeps, _settings: PreregSettings): JobDefinitions => ({});
