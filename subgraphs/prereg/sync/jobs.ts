import type { JobDefinitions } from '../../../lib/jobs/types.js';
import type { PlatformDeps } from '../../../lib/deps.js';
import type { PreregSettings } from '../settings.js';

declare module '../../../lib/jobs/types.js' {
  interface JobPayloads {
    /** the applications a report just consumed, moved to the consumed history */
    'prereg.consumed.move': { preRegIds: string[] };
    /** recurring: every consumed application not moved yet (a report's job that did not run), moved */
    'prereg.consumed.sweep': Record<string, never>;
    /** the application a processed registration's packet names, consumed (enqueued with the registration's outcome) */
    'prereg.consumed.registration': { preRegId: string; rid: string; centreId: string };
  }
}

/** Sync's jobs: consumed applications moved (after each report, and every PREREG_CONSUMED_EVERY_MINUTES), and a processed packet's application consumed. */
export const syncJobs = (deps: PlatformDeps, settings: PreregSettings): JobDefinitions => {
  const { preregSync: sync } = deps.services;
  return {
    'prereg.consumed.move': { run: async ({ preRegIds }) => void (await sync.moveConsumed(preRegIds)), backoffMs: 5_000 },
    'prereg.consumed.sweep': { run: async () => void (await sync.moveConsumed()), everyMs: settings.consumedMoveEveryMinutes * 60_000 },
    'prereg.consumed.registration': { run: async (registered) => void (await sync.consumeRegistered(registered)), backoffMs: 5_000 },
  };
};
