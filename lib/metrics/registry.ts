import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';

/** Request latencies: a fast REST read to a slow packet upload. */
const REQUEST_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
/** Stage runs: a validation to a de-duplication or an identity write over a slow store. */
const STAGE_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];

/** A GraphQL operation name as a caller may send it: anything else is no name of a label. */
const OPERATION_NAME = /^[_A-Za-z][_0-9A-Za-z]{0,63}$/;
/** Distinct operation names one process labels before the rest count as `other`: callers choose names, series cost memory. */
export const MAX_OPERATION_NAMES = 200;

/** An error code as a label or a log field: the platform's codes, nothing a caller wrote. */
const ERROR_CODE = /^[A-Za-z][A-Za-z0-9_.-]{0,39}$/;

/** A caller's operation name if it is a valid GraphQL name of at most 64 characters, else undefined. */
export const validOperationName = (name: string | null | undefined): string | undefined => (name && OPERATION_NAME.test(name) ? name : undefined);

/** An error code fit for a label; anything odd is `other`. */
export const codeLabel = (code: string): string => (ERROR_CODE.test(code) ? code : 'other');

/** The metrics a request or a stage run updates as it happens; the database-backed ones are read at scrape time (gauges.ts). */
export interface RequestMetrics {
  registry: Registry;
  httpRequests: Counter<'route' | 'method' | 'status_class' | 'outcome'>;
  httpDuration: Histogram<'route' | 'method' | 'status_class'>;
  graphqlOperations: Counter<'operation' | 'outcome'>;
  graphqlDuration: Histogram<'operation'>;
  stageDuration: Histogram<'stage' | 'outcome'>;
  collectorFailures: Counter<'collector'>;
  /** the label of an operation name: `anonymous`, the name, or `other` past the cap */
  operationLabel(name: string | undefined): string;
}

/** A registry of the platform's own (not prom-client's global one), every series labelled with this process's instance id. */
export function createRequestMetrics(instance: string): RequestMetrics {
  const registry = new Registry();
  registry.setDefaultLabels({ instance });
  collectDefaultMetrics({ register: registry });
  const registers = [registry];
  const named = new Set<string>();
  return {
    registry,
    httpRequests: new Counter({
      name: 'platform_http_requests_total',
      help: 'HTTP requests by route template (never the raw path), method, status class and outcome (ok, refused: an error answered, error: 5xx)',
      labelNames: ['route', 'method', 'status_class', 'outcome'],
      registers,
    }),
    httpDuration: new Histogram({
      name: 'platform_http_request_duration_seconds',
      help: 'HTTP request latency by route template, method and status class',
      labelNames: ['route', 'method', 'status_class'],
      buckets: REQUEST_BUCKETS,
      registers,
    }),
    graphqlOperations: new Counter({
      name: 'platform_graphql_operations_total',
      help: `GraphQL operations on /graphql by operation name (anonymous when unnamed, other past ${MAX_OPERATION_NAMES} names) and outcome (ok or the first error code)`,
      labelNames: ['operation', 'outcome'],
      registers,
    }),
    graphqlDuration: new Histogram({
      name: 'platform_graphql_operation_duration_seconds',
      help: 'GraphQL operation latency on /graphql by operation name',
      labelNames: ['operation'],
      buckets: REQUEST_BUCKETS,
      registers,
    }),
    stageDuration: new Histogram({
      name: 'platform_regproc_stage_duration_seconds',
      help: 'Registration pipeline stage runs in this process by stage and outcome (success, waiting, processed, rejected, failed, fault, overtaken, error)',
      labelNames: ['stage', 'outcome'],
      buckets: STAGE_BUCKETS,
      registers,
    }),
    collectorFailures: new Counter({
      name: 'platform_metrics_collector_failures_total',
      help: 'Scrape-time reads that failed or timed out (their series were left out of that scrape)',
      labelNames: ['collector'],
      registers,
    }),
    operationLabel(name) {
      if (!name) return 'anonymous';
      if (named.has(name)) return name;
      if (named.size >= MAX_OPERATION_NAMES) return 'other';
      named.add(name);
      return name;
    },
  };
}
