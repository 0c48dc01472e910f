import type { ComponentJobs } from '../component.js';
import { bookingJobs } from './booking/jobs.js';
import type { preregSettings } from './settings.js';
import { syncJobs } from './sync/jobs.js';

/** Pre-registration's jobs: booking's (expiry, slots gone with a holiday or a closed centre) and sync's (consumed applications moved). */
export const preregJobs: ComponentJobs<typeof preregSettings> = (deps, settings) => ({ ...bookingJobs(deps, settings), ...syncJobs(deps, settings) });
