import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import type { JobDefinitions } from '../../lib/jobs/types.js';

/** What a test job does, written into its payload: how long each attempt works, and which attempts fail. */
export interface TestJobPayload {
  label: string;
  /** how long the first attempt works before it finishes (long: a worker can be killed in it) */
  firstAttemptMs?: number;
  /** attempts up to this one fail */
  failUntil?: number;
}

/**
 * Job handlers for tests of the runner itself: each run appends `start
 * <label> <attempt>` and `done <label> <attempt>` to a journal file (a side
 * effect outside the database, which a killed process cannot roll back).
 */
export function testJobs(journal: string, options: { leaseMs?: number; maxAttempts?: number; onDead?: (label: string) => void } = {}): JobDefinitions {
  return {
    'test.work': {
      leaseMs: options.leaseMs ?? 1_000,
      maxAttempts: options.maxAttempts ?? 5,
      backoffMs: 20,
      run: async (payload: TestJobPayload, job) => {
        appendFileSync(journal, `start ${payload.label} ${job.attempt}\n`);
        if (job.attempt === 1 && payload.firstAttemptMs) await new Promise((resolve) => setTimeout(resolve, payload.firstAttemptMs));
        if (job.attempt <= (payload.failUntil ?? 0)) throw new Error(`attempt ${job.attempt} of ${payload.label} fails`);
        appendFileSync(journal, `done ${payload.label} ${job.attempt}\n`);
      },
      onDead: (payload: TestJobPayload) => Promise.resolve(options.onDead?.(payload.label)),
    },
  };
}

/** The journal's lines. */
export const journalLines = (journal: string): string[] => (existsSync(journal) ? readFileSync(journal, 'utf8').split('\n').filter(Boolean) : []);
