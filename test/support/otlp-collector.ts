// An OpenTelemetry collector's receiving end for tests: OTLP over HTTP with JSON bodies (what the
// platform's exporter sends), each span kept with its service, so a test follows one trace across
// processes.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface CollectedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  /** OTLP's numbering: 1 internal, 2 server, 3 client, 4 producer, 5 consumer */
  kind: number;
  service: string;
  attributes: Record<string, unknown>;
  /** 2: the span failed */
  status?: number;
}

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  boolValue?: boolean;
  doubleValue?: number;
}
type OtlpAttributes = { key: string; value: OtlpValue }[] | undefined;

const valueOf = (value: OtlpValue) => value.stringValue ?? (value.intValue !== undefined ? Number(value.intValue) : (value.boolValue ?? value.doubleValue));
const attributesOf = (list: OtlpAttributes) => Object.fromEntries((list ?? []).map(({ key, value }) => [key, valueOf(value)]));

interface ExportRequest {
  resourceSpans?: {
    resource?: { attributes?: OtlpAttributes };
    scopeSpans?: {
      spans?: { traceId: string; spanId: string; parentSpanId?: string; name: string; kind: number; attributes?: OtlpAttributes; status?: { code?: number } }[];
    }[];
  }[];
}

export interface OtlpCollector {
  /** the base address to give as OTEL_EXPORTER_OTLP_ENDPOINT */
  endpoint: string;
  spans: CollectedSpan[];
  close(): Promise<void>;
}

export async function startOtlpCollector(): Promise<OtlpCollector> {
  const spans: CollectedSpan[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/traces' || !req.headers['content-type']?.startsWith('application/json')) {
        res.writeHead(404).end();
        return;
      }
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ExportRequest;
      for (const resourceSpans of body.resourceSpans ?? []) {
        const service = String(attributesOf(resourceSpans.resource?.attributes)['service.name']);
        for (const scope of resourceSpans.scopeSpans ?? []) {
          for (const span of scope.spans ?? []) {
            spans.push({
              traceId: span.traceId,
              spanId: span.spanId,
              parentSpanId: span.parentSpanId || undefined,
              name: span.name,
              kind: span.kind,
              service,
              attributes: attributesOf(span.attributes),
              status: span.status?.code,
            });
          }
        }
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    spans,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
