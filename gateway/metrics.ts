import { createHash, timingSafeEqual } from 'node:crypto';
import type { ApolloServerPlugin } from '@apollo/server';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { PlatformConfig } from '../lib/config.js';
import type { RequestContext } from '../lib/context.js';
import type { Database } from '../lib/db/client.js';
import type { PlatformDeps } from '../lib/deps.js';
import { INTERNAL_ERROR } from '../lib/errors.js';
import type { JobQueue } from '../lib/jobs/queue.js';
import { instanceId } from '../lib/log.js';
import { registerGauges, type GaugeSources } from '../lib/metrics/gauges.js';
import { factsOf, noteFacts, operationPlugin } from '../lib/metrics/operations.js';
import { codeLabel, createRequestMetrics, type RequestMetrics } from '../lib/metrics/registry.js';

/** Database-backed gauges are read at most this often, whatever the number of scrapes. */
const GAUGE_TTL_MS = 5_000;
/** A gauge read slower than this leaves its series out of the scrape rather than holding it. */
const GAUGE_TIMEOUT_MS = 3_000;

/** The route template of a request, never its path (which may hold a RID, a UIN, an e-mail address). */
export function routeTemplate(req: Request, res: Response): string {
  const path = (req.route as { path?: unknown } | undefined)?.path;
  if (typeof path === 'string') return path;
  return res.statusCode === 404 ? 'unmatched' : req.baseUrl || 'unmatched';
}

/** The REST layer answers a refusal with HTTP 200 and an envelope: the envelope's first error code, read as the body goes out. */
const ENVELOPE_HEAD = 1024;
const ENVELOPE_ERROR = /"response":null,"errors":\[\{"errorCode":"([^"\\]{1,64})"/;

/** What the HTTP layer mounts: the facts of every request for the access log, and, when on, the metrics and `/metrics`. */
export interface HttpObservers {
  /** notes a REST answer's error code; counts and times the request when metrics are on */
  observe: RequestHandler;
  /** GET /metrics; undefined when PLATFORM_METRICS is false */
  scrape?: RequestHandler;
}

function statusClass(status: number): string {
  return `${Math.floor(status / 100)}xx`;
}

const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();

/** Whether a scrape may read: always without PLATFORM_METRICS_TOKEN, else with that bearer token (compared in constant time, by digest). */
function scrapeRule(token: string | undefined): (req: Request) => boolean {
  if (!token) return () => true;
  const expected = digest(token);
  return (req) => timingSafeEqual(digest(/^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? ''), expected);
}

function httpObservers(metrics: RequestMetrics | undefined, token?: string): HttpObservers {
  const observe = (req: Request, res: Response, next: NextFunction) => {
    const send = res.send.bind(res);
    res.send = (body?: unknown) => {
      if (typeof body === 'string' && !factsOf(req)?.errorCode) {
        // An envelope names its first error within its opening characters: a long answer (a page of records) is not scanned whole.
        const code = ENVELOPE_ERROR.exec(body.length > ENVELOPE_HEAD ? body.slice(0, ENVELOPE_HEAD) : body)?.[1];
        if (code) noteFacts(req, { errorCode: codeLabel(code) });
      }
      return send(body);
    };
    if (metrics) {
      const started = process.hrtime.bigint();
      res.on('finish', () => {
        const labels = { route: routeTemplate(req, res), method: req.method, status_class: statusClass(res.statusCode) };
        const code = factsOf(req)?.errorCode;
        const outcome = res.statusCode >= 500 || code === INTERNAL_ERROR ? 'error' : res.statusCode >= 400 || code ? 'refused' : 'ok';
        metrics.httpRequests.inc({ ...labels, outcome });
        metrics.httpDuration.observe(labels, Number(process.hrtime.bigint() - started) / 1e9);
      });
    }
    next();
  };
  if (!metrics) return { observe };
  const { registry } = metrics;
  const scrapeAllowed = scrapeRule(token);
  return {
    observe,
    scrape: (req, res, next) => {
      if (!scrapeAllowed(req)) return void res.status(401).setHeader('WWW-Authenticate', 'Bearer').type('text').send('a bearer token is required\n');
      registry.metrics().then((text) => res.type(registry.contentType).send(text), next);
    },
  };
}

/** Where each gauge reads, through the components' services (never a query of their tables here). */
function gaugeSources(deps: PlatformDeps, database: Database, jobs: JobQueue): GaugeSources {
  const { notify, abisOperator, pipeline, uinPool } = deps.services;
  const abis = () => abisOperator.systems({ lastCounts: false });
  return {
    now: () => deps.clock.now(),
    databaseUp: () =>
      database.ping().then(
        () => true,
        () => false,
      ),
    pool: () => database.poolCounts?.(),
    queueState: () => deps.queue.state,
    jobs: () => jobs.storage.countsByKind(jobs.kinds, deps.clock.now()),
    backlogs: async () => {
      const [pending, systems] = await Promise.all([notify.backlog(), abis()]);
      const outstanding = systems.filter((system) => system.unsent > 0);
      return [
        { outbox: 'notify', ...pending },
        // The ABIS outbox's oldest is that of its outstanding requests (sent or not): the closest the operator view tells.
        {
          outbox: 'abis',
          count: systems.reduce((sum, system) => sum + system.unsent, 0),
          oldestAt: outstanding.reduce<Date | null>((oldest, system) => minDate(oldest, system.oldestOutstandingAt), null),
        },
      ];
    },
    abis,
    registrations: () => pipeline.inFlightByStage(),
    stuckRegistrations: () => pipeline.stuckCount(),
    uinPool: async () => ({ unused: await uinPool.unused(), ...uinPool.limits }),
  };
}

const minDate = (a: Date | null, b: Date | null) => (!a ? b : !b ? a : a < b ? a : b);

export interface PlatformMetrics {
  /** the GraphQL plugin that notes operations (always) and counts them (when on) */
  plugin: ApolloServerPlugin<RequestContext>;
  http: HttpObservers;
  /** the registry, when on (tests read it) */
  metrics: RequestMetrics | undefined;
  /** stops listening to the pipeline */
  close(): void;
}

/**
 * The platform's metrics (PLATFORM_METRICS): a registry of its own with every
 * series labelled `instance`, request and operation counters and latencies,
 * stage durations as the pipeline runs them, and gauges read at scrape time.
 * Off, the access log still gets each request's facts.
 */
export function platformMetrics(config: PlatformConfig, deps: PlatformDeps, database: Database, jobs: JobQueue): PlatformMetrics {
  if (!config.metrics) return { plugin: operationPlugin(undefined), http: httpObservers(undefined), metrics: undefined, close: () => undefined };
  const metrics = createRequestMetrics(config.instanceId ?? instanceId(config.env));
  registerGauges(metrics, gaugeSources(deps, database, jobs), { ttlMs: GAUGE_TTL_MS, timeoutMs: GAUGE_TIMEOUT_MS });
  const stop = deps.services.pipeline.observeStages((run) => metrics.stageDuration.observe({ stage: run.stage, outcome: run.outcome }, run.ms / 1000));
  return { plugin: operationPlugin(metrics), http: httpObservers(metrics, config.metricsToken), metrics, close: stop };
}
