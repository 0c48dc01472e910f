import type { Express, Response } from 'express';
import type { PlatformConfig } from '../lib/config.js';
import type { Database } from '../lib/db/client.js';
import type { PlatformDeps } from '../lib/deps.js';
import type { JobQueue } from '../lib/jobs/queue.js';
import type { JobRunner } from '../lib/jobs/runner.js';

export type Status = 'UP' | 'DOWN' | 'DISABLED' | 'UNKNOWN' | 'NOT_CONFIGURED';

export interface HealthReport {
  status: 'UP' | 'DOWN';
  version?: string;
  instance?: string;
  components: Record<string, { status: string; details?: Record<string, unknown> }>;
}

export interface Health {
  /** the process answers: what a liveness probe asks (a restart cures nothing else) */
  live(): HealthReport;
  /** what this instance needs to serve: the database, the broker when an ABIS de-duplicates, the object store, a job runner somewhere */
  ready(): Promise<HealthReport>;
  /** readiness with everything an operator looks at: scanner, stuck registrations, ABIS, jobs, pools */
  detail(): Promise<HealthReport>;
}

interface HealthSources {
  config: PlatformConfig;
  database: Database;
  deps: PlatformDeps;
  jobQueue: JobQueue;
  jobRunner: JobRunner;
  version: string;
  instance: string;
}

const settle = <T>(work: Promise<T>): Promise<T | null> => work.catch(() => null);
const up = (ok: boolean): Status => (ok ? 'UP' : 'DOWN');

export function createHealth(sources: HealthSources): Health {
  const { config, database, deps, jobRunner, jobQueue } = sources;
  const { queue, objects } = deps;
  // Only de-duplication by an ABIS needs the broker; with local de-duplication an absent broker costs nothing.
  const brokerNeeded = config.env.REGPROC_DEDUPE === 'abis';
  const identity = { version: sources.version, instance: sources.instance };

  const ready = async (): Promise<HealthReport> => {
    const databaseUp = await database.ping().then(
      () => true,
      () => false,
    );
    // A missing key answers null; an unreachable store (S3 away, a folder gone) throws.
    const storeUp = await objects.get('platform/store-id').then(
      () => true,
      () => false,
    );
    const runners = databaseUp ? await settle(jobRunner.alive()) : null;
    const queueState = queue.state;
    const queueOk = !brokerNeeded || queueState === 'UP';
    const ok = databaseUp && storeUp && queueOk && !!runners?.length;
    return {
      status: ok ? 'UP' : 'DOWN',
      ...identity,
      components: {
        database: { status: up(databaseUp), details: { kind: database.kind } },
        queue: { status: queueState, details: { required: brokerNeeded } },
        objectStore: { status: up(storeUp), details: { kind: objects.kind } },
        jobRunners: {
          status: runners === null ? 'UNKNOWN' : up(runners.length > 0),
          details: { alive: runners?.map(({ role, instance }) => ({ role, instance })) ?? [], runsHere: config.jobs.run },
        },
      },
    };
  };

  return {
    live: () => ({ status: 'UP', ...identity, components: {} }),
    ready,
    detail: async () => {
      const report = await ready();
      const databaseUp = report.components.database!.status === 'UP';
      const { virusScanner, pipeline, abisOperator, uinPool } = deps.services;
      const [scanner, stuck, abis, jobs, unused] = await Promise.all([
        virusScanner.health(),
        databaseUp ? settle(pipeline.stuckCount()) : null,
        databaseUp ? settle(abisOperator.health()) : null,
        databaseUp ? settle(jobQueue.storage.counts()) : null,
        databaseUp ? settle(uinPool.unused()) : null,
      ]);
      const { threshold, size } = uinPool.limits;
      return {
        ...report,
        components: {
          ...report.components,
          virusScanner: { status: scanner.status, details: { detail: scanner.detail } },
          registrations: { status: stuck === null ? 'UNKNOWN' : 'UP', details: { stuck } },
          // An ABIS that does not answer holds de-duplication back (registrations wait, then REPROCESS); the rest serves.
          abis: abis ?? { status: 'UNKNOWN' },
          // Dead jobs wait for an operator (`npm run platform -- jobs dead`); they do not stop the rest.
          jobs: { status: jobs === null ? 'UNKNOWN' : 'UP', details: jobs ? { ...jobs } : undefined },
          uinPool: {
            status: unused === null ? 'UNKNOWN' : unused < threshold ? 'LOW' : 'UP',
            details: { unused, threshold, size },
          },
        },
      };
    },
  };
}

/** The three probes on an Express app: 200 when UP, else 503, with the report. */
export function mountHealth(app: Express, health: Health): void {
  const answer = (res: Response, report: HealthReport) => res.status(report.status === 'UP' ? 200 : 503).json(report);
  app.get('/health/live', (_req, res) => answer(res, health.live()));
  app.get('/health/ready', async (_req, res) => answer(res, await health.ready()));
  app.get('/health', async (_req, res) => answer(res, await health.detail()));
}
