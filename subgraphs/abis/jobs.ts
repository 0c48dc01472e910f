import type { ComponentJobs } from '../component.js';
import type { abisSettings } from './settings.js';

/** The ABIS outbox's sender and the reply timeout's sweep. */
export const abisJobs: ComponentJobs<typeof abisSettings> = (deps, settings) => ({
  'abis.send': {
    run: ({ requestId }, context) => deps.services.abisRequests.send(requestId, context),
    // A broker away: retried with back-off until it returns (the request stays IN_PROGRESS).
    maxAttempts: 1000,
    backoffMs: 1000,
    maxBackoffMs: 30_000,
  },
  'abis.expire': {
    everyMs: Math.max(1000, Math.min(60_000, (settings.responseTimeoutSeconds * 1000) / 4)),
    run: async () => void (await deps.services.abisRequests.expire()),
  },
});
