import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { factsOf } from '../lib/metrics/operations.js';
import { contextFromHeaders, failSpan, SpanKind, startSpanIn, tracingEnabled } from '../lib/tracing.js';
import { routeTemplate } from './metrics.js';

/**
 * One server span per HTTP request, continuing the caller's trace when its
 * `traceparent` names one (a gateway calling a separately served subgraph).
 * Named by method and route template, never the path (which may hold a RID
 * or a UIN); it carries the operation, caller id and error code the access
 * log carries. A no-op while traces are off.
 */
export function traceRequests(): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    if (!tracingEnabled()) return next();
    const attributes = { 'http.request.method': req.method, 'url.scheme': req.protocol };
    startSpanIn(contextFromHeaders(req.headers), req.method, SpanKind.SERVER, attributes, (span) => {
      // `close` comes after `finish`, and also when the caller went away first.
      res.once('close', () => {
        const route = routeTemplate(req, res);
        const facts = factsOf(req);
        span.updateName(`${req.method} ${route}`);
        span.setAttributes({
          'http.route': route,
          'http.response.status_code': res.statusCode,
          ...(req.requestId && { 'platform.request_id': req.requestId }),
          ...(facts?.operation && { 'graphql.operation.name': facts.operation }),
          ...(facts?.caller && { 'enduser.id': facts.caller }),
          ...(facts?.errorCode && { 'platform.error_code': facts.errorCode }),
        });
        if (res.statusCode >= 500) failSpan(span, `HTTP ${res.statusCode}`);
        span.end();
      });
      next();
    });
  };
}
