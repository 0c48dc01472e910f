import type { ComponentJobs } from '../component.js';
import { JOB_STAGES, STAGE_JOBS } from './pipeline/stages.js';
import type { regprocSettings } from './settings.js';

/**
 * The registration processor's jobs: one kind per stage, and the recurring
 * reprocessor. A stage's job retries by itself only when its outcome
 * cannot even be written (the database away); the stage's own failures are
 * REPROCESS, counted on the registration.
 */
export const regprocJobs: ComponentJobs<typeof regprocSettings> = (deps, settings) => {
  const { pipeline } = deps.services;
  return {
    ...Object.fromEntries(
      JOB_STAGES.map((stage) => [
        STAGE_JOBS[stage],
        {
          run: ({ rid }: { rid: string }, context: Parameters<typeof pipeline.runStage>[2]) => pipeline.runStage(stage, rid, context),
          maxAttempts: 20,
          backoffMs: 1000,
          maxBackoffMs: 60_000,
          leaseMs: settings.stageLeaseMs,
          onDead: ({ rid }: { rid: string }, reason: string) => pipeline.jobDied(stage, rid, reason),
        },
      ]),
    ),
    'regproc.reprocess': {
      // Often enough that a due registration waits a small part of the elapse time, at most a minute.
      everyMs: Math.max(1000, Math.min(60_000, (settings.reprocessElapseSeconds * 1000) / 4)),
      run: async () => void (await pipeline.reprocessDue()),
    },
  };
};
