import type { ComponentJobs } from '../component.js';
import type { notifySettings } from './settings.js';

declare module '../../lib/jobs/types.js' {
  interface JobPayloads {
    /** one message's delivery, retried with the notify back-off */
    'notify.deliver': { notificationId: string };
    /** recipients and bodies past the retention time dropped */
    'notify.purge': Record<string, never>;
  }
}

/** Deliveries (first attempt in the request, retries on any runner) and the outbox purge. */
export const notifyJobs: ComponentJobs<typeof notifySettings> = (deps, settings) => {
  const { notify } = deps.services;
  return {
    'notify.deliver': {
      run: ({ notificationId }, job) => notify.deliver(notificationId, job),
      maxAttempts: settings.maxAttempts,
      backoffMs: settings.retryBaseSeconds * 1000,
      // SMTP and SMS timeouts stay well below it (delivery.ts).
      leaseMs: 60_000,
    },
    'notify.purge': {
      run: async () => void (await notify.purgeExpired()),
      everyMs: settings.purgeEveryMs,
    },
  };
};
