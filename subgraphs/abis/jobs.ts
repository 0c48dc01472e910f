import type { ComponentJobs } from '../component.js';
import type { abisSettings } from './settings.js';

/** The ABIS outbox's sender, the reply timeout's sweep and the liveness pings. */
export const abisJobs: ComponentJobs<typeof abisSettings> = (deps, settings) => {
  const { abisOperator, abisRequests } = deps.services;
  return {
    'abis.send': {
      run: ({ requestId }, context) => abisRequests.send(requestId, context),
      // A broker away: retried with back-off until it returns (the request stays IN_PROGRESS).
      maxAttempts: 1000,
      backoffMs: 1000,
      maxBackoffMs: 30_000,
      // Heart-beats renew it: a short lease only means a crashed sender's request goes out again soon.
      leaseMs: 5000,
    },
    'abis.expire': {
      everyMs: Math.max(1000, Math.min(60_000, (Math.min(settings.responseTimeoutSeconds, settings.pingTimeoutSeconds) * 1000) / 4)),
      run: async () => void (await abisRequests.expire()),
    },
    ...(settings.pingIntervalSeconds > 0
      ? {
          'abis.ping': {
            everyMs: settings.pingIntervalSeconds * 1000,
            run: () => abisOperator.pingAll(),
          },
        }
      : {}),
  };
};
