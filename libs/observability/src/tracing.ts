import {
  context,
  type Link,
  propagation,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
  type Tracer,
} from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import type { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';

let provider: NodeTracerProvider | undefined;

/**
 * Starts OpenTelemetry tracing when an OTLP endpoint is configured (the exporter reads the
 * standard OTEL_EXPORTER_OTLP_* variables); otherwise the API stays a no-op costing nothing.
 * Only what matters is instrumented (HTTP in, NATS in and out, LLM calls, function runs):
 * full auto-instrumentation costs ~35 MB of RSS per service.
 */
export async function startTracing(service: string, version: string, endpoint?: string): Promise<boolean> {
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  if (!endpoint || provider) return Boolean(provider);
  // The SDK and exporter are loaded only when tracing is on: a service without them saves memory.
  const [
    { BatchSpanProcessor, NodeTracerProvider },
    { OTLPTraceExporter },
    { resourceFromAttributes },
    semconv,
  ] = await Promise.all([
    import('@opentelemetry/sdk-trace-node'),
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('@opentelemetry/resources'),
    import('@opentelemetry/semantic-conventions'),
  ]);
  const { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } = semconv;
  provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: service, [ATTR_SERVICE_VERSION]: version }),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter(), { scheduledDelayMillis: 500 })],
  });
  provider.register({ propagator: new W3CTraceContextPropagator() });
  return true;
}

export async function stopTracing(): Promise<void> {
  await provider?.shutdown().catch(() => undefined);
  provider = undefined;
}

export function tracer(): Tracer {
  return trace.getTracer('agentchassis');
}

/** Runs `work` inside a new span, ending it with the outcome. */
export async function inSpan<T>(
  name: string,
  options: { kind?: SpanKind; attributes?: Record<string, string | number | boolean>; links?: Link[] },
  work: (span: Span) => Promise<T>,
): Promise<T> {
  const spanOptions = {
    kind: options.kind ?? SpanKind.INTERNAL,
    attributes: options.attributes,
    links: options.links,
  };
  return tracer().startActiveSpan(name, spanOptions, async (span) => {
    try {
      return await work(span);
    } catch (err) {
      span.setStatus({ code: SpanStatusCode.ERROR, message: (err as Error)?.message });
      throw err;
    } finally {
      span.end();
    }
  });
}

/** Headers carrying the active trace context (W3C traceparent), for a message or a response. */
export function traceHeaders(into: Record<string, string> = {}): Record<string, string> {
  propagation.inject(context.active(), into);
  return into;
}

/** Runs `work` in the trace context carried by `headers` (from NATS or HTTP). */
export function withRemoteContext<T>(headers: Record<string, string | undefined>, work: () => T): T {
  return context.with(propagation.extract(context.active(), headers), work);
}

/** The active span as a W3C `traceparent`, to store with something that will run later. */
export function activeTraceparent(): string | undefined {
  return traceHeaders().traceparent;
}

/** A link to the span a stored `traceparent` names (e.g. the request that created a task). */
export function linkTo(traceparent: string | null | undefined): Link[] {
  if (!traceparent) return [];
  const spanContext = trace.getSpanContext(propagation.extract(ROOT_CONTEXT, { traceparent }));
  return spanContext ? [{ context: spanContext }] : [];
}

/** The active trace and span ids, for log lines. */
export function activeTraceFields(): { traceId: string; spanId: string } | undefined {
  const span = trace.getActiveSpan();
  if (!span) return undefined;
  const { traceId, spanId } = span.spanContext();
  return { traceId, spanId };
}

export function activeTraceId(): string | undefined {
  return activeTraceFields()?.traceId;
}

export { SpanKind, SpanStatusCode };
export type { Span };
