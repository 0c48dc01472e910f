import type { ComponentJobs } from '../component.js';
import type { idrepoSettings } from './settings.js';

declare module '../../lib/jobs/types.js' {
  interface JobPayloads {
    /** the UIN pool filled up to its size (one at a time: a singleton) */
    'idrepo.uin-pool.refill': Record<string, never>;
  }
}

/** The UIN pool's refill. */
export const idrepoJobs: ComponentJobs<typeof idrepoSettings> = (deps) => {
  const { uinPool } = deps.services;
  return {
    'idrepo.uin-pool.refill': {
      run: (_payload, context) => uinPool.fill(context.stopping),
      // A large first fill (200,000 numbers) takes a while: the heartbeat keeps the lease; a stop or a crash leaves the rest to the next run.
      leaseMs: 60_000,
      backoffMs: 5_000,
    },
  };
};
