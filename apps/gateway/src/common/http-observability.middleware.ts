import type { NextFunction, Request, Response } from 'express';
import { context, propagation, SpanKind, trace } from '@opentelemetry/api';
import { Metrics, tracer } from '@app/observability';

/**
 * One server span per HTTP request (continuing a caller's `traceparent`), the trace id returned
 * in the `traceparent` response header, and request metrics labelled by route pattern (bounded).
 */
export function httpObservability(req: Request, res: Response, next: NextFunction): void {
  const started = performance.now();
  const parent = propagation.extract(context.active(), req.headers);
  const span = tracer().startSpan(
    `${req.method} ${req.path}`,
    { kind: SpanKind.SERVER, attributes: { 'http.request.method': req.method } },
    parent,
  );
  const active = trace.setSpan(parent, span);
  const carrier: Record<string, string> = {};
  propagation.inject(active, carrier);
  if (carrier.traceparent) res.setHeader('traceparent', carrier.traceparent);
  res.once('finish', () => {
    const route = routeOf(req);
    const status = String(res.statusCode);
    span.updateName(`${req.method} ${route}`);
    span.setAttributes({ 'http.route': route, 'http.response.status_code': res.statusCode });
    span.end();
    Metrics.httpRequests().inc({ method: req.method, route, status });
    Metrics.httpDuration().observe({ method: req.method, route }, (performance.now() - started) / 1000);
  });
  context.with(active, next);
}

function routeOf(req: Request): string {
  const path = (req as Request & { route?: { path?: string } }).route?.path;
  return typeof path === 'string' ? `${req.baseUrl}${path}` : 'unmatched';
}
