import type { JobDefinitions } from '../../../lib/jobs/types.js';
import type { PlatformDeps } from '../../../lib/deps.js';
import type { PreregSettings } from '../settings.js';
import type { SlotsGone } from './upkeep.js';

declare module '../../../lib/jobs/types.js' {
  interface JobPayloads {
    /** Booked applications whose appointment day has passed become Expired (recurring) */
    'prereg.booking.expire': Record<string, never>;
    /** the safety net: every appointment from today on whose slot master data no longer offers is cancelled (recurring) */
    'prereg.booking.reconcile': Record<string, never>;
    /** the appointments of some days (a holiday made) or of a centre (closed) whose slot is gone, cancelled */
    'prereg.booking.slots-gone': SlotsGone;
  }
}

/** How often the safety net runs: changes master data published no event for (hours, working days) or made while the platform was down. */
export const RECONCILE_EVERY_MS = 60 * 60_000;
/** Cancelling many appointments (each with its notices) may take a while: the lease its heartbeat renews. */
const CANCELLING_LEASE_MS = 120_000;

/** Booking's jobs: expiry, and cancelling appointments whose slot is gone (on master data's events, and as a recurring safety net). */
export const bookingJobs = (deps: PlatformDeps, settings: PreregSettings): JobDefinitions => {
  const upkeep = deps.services.preregBookingUpkeep;
  return {
    'prereg.booking.expire': { run: async () => void (await upkeep.expire()), everyMs: settings.expiryEveryMinutes * 60_000 },
    'prereg.booking.reconcile': { run: async () => void (await upkeep.cancelGone({})), everyMs: RECONCILE_EVERY_MS, leaseMs: CANCELLING_LEASE_MS },
    'prereg.booking.slots-gone': { run: async (scope) => void (await upkeep.cancelGone(scope)), leaseMs: CANCELLING_LEASE_MS },
  };
};
