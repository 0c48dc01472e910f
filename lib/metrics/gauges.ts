import { Gauge, type Registry } from 'prom-client';
import type { RequestMetrics } from './registry.js';
import { sampled } from './sampled.js';

export interface PoolCounts {
  /** connections open */
  total: number;
  idle: number;
  /** queries waiting for a connection */
  waiting: number;
  max: number;
}

export interface JobKindCounts {
  kind: string;
  queued: number;
  running: number;
  dead: number;
  /** when the oldest queued job that is due became due (null: none due) */
  oldestDueAt: Date | null;
}

export interface Backlog {
  outbox: string;
  count: number;
  oldestAt: Date | null;
}

export interface AbisState {
  name: string;
  liveness: string;
  /** requests written, not yet sent (IN_PROGRESS) */
  unsent: number;
  /** requests sent, not yet answered (SENT) */
  unanswered: number;
  oldestOutstandingAt: Date | null;
}

/** What the scrape-time gauges read, each through its component's service or storage (gateway/metrics.ts wires them). */
export interface GaugeSources {
  now: () => Date;
  databaseUp: () => Promise<boolean>;
  /** the PostgreSQL pool's counts; undefined on embedded PGlite (one connection in the process) */
  pool: () => PoolCounts | undefined;
  queueState: () => string;
  jobs: () => Promise<JobKindCounts[]>;
  backlogs: () => Promise<Backlog[]>;
  abis: () => Promise<AbisState[]>;
  /** registrations not PROCESSED or REJECTED, by stage and status */
  registrations: () => Promise<{ stage: string | null; status: string; count: number }[]>;
  stuckRegistrations: () => Promise<number>;
  uinPool: () => Promise<{ unused: number; size: number; threshold: number }>;
}

/**
 * A gauge set from a read at scrape time. A read that failed tells nothing:
 * a label-less prom-client gauge would say 0 (an empty UIN pool, a database
 * down), which is worse than a gap.
 */
class SampledGauge<L extends string, T> extends Gauge<L> {
  constructor(
    config: { name: string; help: string; labelNames: L[]; registers: Registry[] },
    private readonly value: () => Promise<T | undefined>,
    private readonly fill: (gauge: Gauge<L>, value: T) => void,
  ) {
    super(config);
  }

  override async get() {
    const got = await this.value();
    // Cleared first: a job kind or an ABIS that is gone leaves no stale series.
    this.reset();
    if (got === undefined) return { ...(await super.get()), values: [] };
    this.fill(this, got);
    return super.get();
  }
}

const QUEUE_STATES = ['UP', 'DOWN', 'DISABLED'];
const LIVENESS = ['UP', 'DOWN', 'UNKNOWN'];
const secondsSince = (at: Date | null, now: Date) => (at ? Math.max(0, (now.getTime() - at.getTime()) / 1000) : 0);

/**
 * Gauges read at scrape time. Each source is read at most once per `ttlMs`
 * whatever the number of scrapes, and a source that fails leaves its own
 * series out of the scrape (counted in platform_metrics_collector_failures_total).
 * The database-backed values are the database's, the same on every instance:
 * aggregate them with max(), not sum().
 */
export function registerGauges(metrics: RequestMetrics, sources: GaugeSources, options: { ttlMs: number; timeoutMs: number }): void {
  const registers: Registry[] = [metrics.registry];
  const read = <T>(collector: string, source: () => Promise<T>) => sampled(source, { ...options, failed: () => metrics.collectorFailures.inc({ collector }) });
  const gauge = <L extends string, T>(
    name: string,
    help: string,
    labelNames: L[],
    value: () => Promise<T | undefined>,
    fill: (gauge: Gauge<L>, value: T) => void,
  ) => new SampledGauge<L, T>({ name, help, labelNames, registers }, value, fill);

  const databaseUp = read('database', sources.databaseUp);
  gauge('platform_database_up', '1 when the database answers a ping', [], databaseUp, (g, up) => g.set(up ? 1 : 0));
  const pool = () => Promise.resolve(sources.pool());
  gauge('platform_db_pool_connections', 'PostgreSQL pool connections open', [], pool, (g, p) => g.set(p.total));
  gauge('platform_db_pool_idle_connections', 'PostgreSQL pool connections idle', [], pool, (g, p) => g.set(p.idle));
  gauge('platform_db_pool_waiting_queries', 'queries waiting for a PostgreSQL pool connection', [], pool, (g, p) => g.set(p.waiting));
  gauge('platform_db_pool_max_connections', 'PostgreSQL pool size limit', [], pool, (g, p) => g.set(p.max));
  const queue = () => Promise.resolve(sources.queueState());
  gauge('platform_queue_state', 'the message broker (ActiveMQ) connection: 1 for its current state', ['state'], queue, (g, state) => {
    for (const each of QUEUE_STATES) g.set({ state: each }, each === state ? 1 : 0);
  });

  const jobs = read('jobs', sources.jobs);
  gauge('platform_jobs', 'jobs by kind and state (queued, running, dead)', ['kind', 'state'], jobs, (g, rows) => {
    for (const row of rows) for (const state of ['queued', 'running', 'dead'] as const) g.set({ kind: row.kind, state }, row[state]);
  });
  gauge('platform_jobs_oldest_due_seconds', 'per kind, how long the oldest queued job that is due has waited (0: none)', ['kind'], jobs, (g, rows) => {
    for (const row of rows) g.set({ kind: row.kind }, secondsSince(row.oldestDueAt, sources.now()));
  });

  const backlogs = read('outbox', sources.backlogs);
  gauge(
    'platform_outbox_backlog',
    'messages written and not yet delivered, by outbox (notify: PENDING notifications, abis: unsent requests)',
    ['outbox'],
    backlogs,
    (g, rows) => {
      for (const row of rows) g.set({ outbox: row.outbox }, row.count);
    },
  );
  gauge('platform_outbox_oldest_seconds', 'age of the oldest undelivered message, by outbox (0: none)', ['outbox'], backlogs, (g, rows) => {
    for (const row of rows) g.set({ outbox: row.outbox }, secondsSince(row.oldestAt, sources.now()));
  });

  const abis = read('abis', sources.abis);
  gauge(
    'platform_abis_requests',
    'outstanding ABIS requests by ABIS and state (IN_PROGRESS: not sent, SENT: not answered)',
    ['abis', 'state'],
    abis,
    (g, rows) => {
      for (const row of rows) {
        g.set({ abis: row.name, state: 'IN_PROGRESS' }, row.unsent);
        g.set({ abis: row.name, state: 'SENT' }, row.unanswered);
      }
    },
  );
  gauge('platform_abis_oldest_outstanding_seconds', 'age of the oldest outstanding request, by ABIS (0: none)', ['abis'], abis, (g, rows) => {
    for (const row of rows) g.set({ abis: row.name }, secondsSince(row.oldestOutstandingAt, sources.now()));
  });
  gauge('platform_abis_liveness', "each ABIS's liveness from its pings: 1 for its current state (UP, DOWN, UNKNOWN)", ['abis', 'liveness'], abis, (g, rows) => {
    for (const row of rows) for (const each of LIVENESS) g.set({ abis: row.name, liveness: each }, each === row.liveness ? 1 : 0);
  });

  const registrations = read('registrations', sources.registrations);
  gauge(
    'platform_registrations',
    'registrations (packets) not yet PROCESSED or REJECTED, by stage and status',
    ['stage', 'status'],
    registrations,
    (g, rows) => {
      for (const row of rows) g.set({ stage: row.stage ?? 'NONE', status: row.status }, row.count);
    },
  );
  const stuck = read('registrations_stuck', sources.stuckRegistrations);
  gauge('platform_registrations_stuck', 'registrations failed, waiting to be reprocessed or without progress for too long', [], stuck, (g, n) => g.set(n));

  const uins = read('uin_pool', sources.uinPool);
  gauge('platform_uin_pool_unused', 'unused UINs in the pool', [], uins, (g, pool) => g.set(pool.unused));
  gauge('platform_uin_pool_threshold', 'below this many unused UINs the pool is refilled', [], uins, (g, pool) => g.set(pool.threshold));
  gauge('platform_uin_pool_size', 'how many unused UINs a refill fills the pool up to', [], uins, (g, pool) => g.set(pool.size));
}
