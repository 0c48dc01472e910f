import type { IncomingHttpHeaders } from 'node:http';
import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Attributes, type Context, type Span } from '@opentelemetry/api';

/**
 * Optional OpenTelemetry traces. Off unless `OTEL_EXPORTER_OTLP_ENDPOINT` is
 * set: then each process registers a tracer provider that sends its spans
 * (OTLP over HTTP, JSON) to the collector, and the spans of one request join
 * across the gateway, separately served subgraphs (W3C `traceparent` on each
 * fetch) and the workers that run the jobs it enqueued (the job row keeps the
 * enqueuer's `traceparent`). Apollo's gateway adds its own spans (plan,
 * fetch) to the same trace. Off, nothing here costs more than a flag check.
 */

const TRACER = 'identity-platform';

export interface TracingOptions {
  /** the collector's base address (`/v1/traces` is added), as the OpenTelemetry variable names it */
  endpoint: string | undefined;
  /** `service.name`: the process's role (platform, worker, subgraph) unless `OTEL_SERVICE_NAME` says otherwise */
  serviceName: string;
  instanceId: string;
  version: string;
}

let enabled = false;
let flush: (() => Promise<void>) | undefined;

/** Whether this process sends traces: the callers below check it before doing any work for a span. */
export const tracingEnabled = () => enabled;

/**
 * Registers the tracer provider when an endpoint is set. The SDK is loaded
 * only then, so a platform without traces does not carry it.
 */
export async function startTracing(options: TracingOptions): Promise<void> {
  if (!options.endpoint || enabled) return;
  const [{ NodeTracerProvider, BatchSpanProcessor }, { OTLPTraceExporter }, { resourceFromAttributes, detectResources, envDetector }] = await Promise.all([
    import('@opentelemetry/sdk-trace-node'),
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('@opentelemetry/resources'),
  ]);
  const resource = resourceFromAttributes({
    'service.name': options.serviceName,
    'service.namespace': 'identity-platform',
    'service.instance.id': options.instanceId,
    'service.version': options.version,
  }).merge(detectResources({ detectors: [envDetector] }));
  const exporter = new OTLPTraceExporter({ url: `${options.endpoint.replace(/\/+$/, '')}/v1/traces` });
  const provider = new NodeTracerProvider({ resource, spanProcessors: [new BatchSpanProcessor(exporter, { scheduledDelayMillis: 1000 })] });
  // Sets the global provider, the AsyncLocalStorage context manager and the W3C trace-context propagator.
  provider.register();
  enabled = true;
  flush = () => provider.shutdown();
}

/** Sends the spans still buffered: called once a stopping process has closed everything else. */
export async function stopTracing(): Promise<void> {
  const done = flush;
  flush = undefined;
  enabled = false;
  await done?.();
}

const tracer = () => trace.getTracer(TRACER);

/** The context a caller's `traceparent` header names (the root when it names none or a malformed one). */
export const contextFromHeaders = (headers: IncomingHttpHeaders | Record<string, string | undefined>): Context => propagation.extract(ROOT_CONTEXT, headers);

/** The active span's `traceparent`, to carry to another process (a subgraph fetch, a job row); undefined when none or off. */
export function currentTraceParent(): string | undefined {
  if (!enabled) return undefined;
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return carrier.traceparent;
}

/** Starts a span under `parent` and runs `work` inside it; the caller ends the span (an HTTP answer ends after `next`). */
export function startSpanIn<T>(parent: Context, name: string, kind: SpanKind, attributes: Attributes, work: (span: Span) => T): T {
  const span = tracer().startSpan(name, { kind, attributes }, parent);
  return context.with(trace.setSpan(parent, span), () => work(span));
}

/** Marks a span failed with a reason (bounded text, never a driver's message with data: callers pass their own reasons). */
export function failSpan(span: Span, reason: string): void {
  span.setStatus({ code: SpanStatusCode.ERROR, message: reason.slice(0, 200) });
}

/**
 * Runs `work` in a span of its own, a child of `traceParent` when given (a job
 * enqueued by a traced request) else of the active span; ends it with the
 * outcome. Off, it only runs `work`.
 */
export async function inSpan<T>(name: string, attributes: Attributes, work: () => Promise<T>, traceParent?: string | null): Promise<T> {
  if (!enabled) return work();
  const parent = traceParent ? propagation.extract(ROOT_CONTEXT, { traceparent: traceParent }) : context.active();
  return startSpanIn(parent, name, traceParent ? SpanKind.CONSUMER : SpanKind.INTERNAL, attributes, async (span) => {
    try {
      return await work();
    } catch (error) {
      failSpan(span, error instanceof Error ? error.message : String(error));
      throw error;
    } finally {
      span.end();
    }
  });
}

/** Adds facts to the active span (a job's span learns which registration stage it ran and how it ended). */
export function annotateActiveSpan(attributes: Attributes): void {
  if (enabled) trace.getActiveSpan()?.setAttributes(attributes);
}

export { SpanKind };
