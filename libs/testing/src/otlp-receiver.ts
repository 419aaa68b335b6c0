import { createServer, type Server } from 'node:http';

export interface ReceivedSpan {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: Record<string, unknown>;
  links: { traceId: string; spanId: string }[];
}

/**
 * A minimal OTLP/HTTP (JSON) trace receiver for tests: what the services export is kept in
 * memory as flat spans. Point OTEL_EXPORTER_OTLP_ENDPOINT at `url`.
 */
export async function startOtlpReceiver(): Promise<{
  url: string;
  spans: () => ReceivedSpan[];
  close: () => Promise<void>;
}> {
  const received: ReceivedSpan[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      try {
        received.push(...flatten(JSON.parse(body)));
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      } catch {
        res.writeHead(400).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    spans: () => [...received],
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

type AnyValue = {
  stringValue?: string;
  intValue?: string | number;
  boolValue?: boolean;
  doubleValue?: number;
};
type KeyValue = { key: string; value: AnyValue };

function flatten(payload: {
  resourceSpans?: {
    resource?: { attributes?: KeyValue[] };
    scopeSpans?: { spans?: Record<string, unknown>[] }[];
  }[];
}): ReceivedSpan[] {
  return (payload.resourceSpans ?? []).flatMap((rs) => {
    const service = String(attributes(rs.resource?.attributes)['service.name'] ?? '');
    return (rs.scopeSpans ?? []).flatMap((ss) =>
      (ss.spans ?? []).map((span) => ({
        service,
        traceId: String(span.traceId),
        spanId: String(span.spanId),
        parentSpanId: span.parentSpanId ? String(span.parentSpanId) : undefined,
        name: String(span.name),
        kind: Number(span.kind),
        attributes: attributes(span.attributes as KeyValue[] | undefined),
        links: ((span.links as { traceId: string; spanId: string }[] | undefined) ?? []).map((l) => ({
          traceId: String(l.traceId),
          spanId: String(l.spanId),
        })),
      })),
    );
  });
}

function attributes(list: KeyValue[] = []): Record<string, unknown> {
  return Object.fromEntries(
    list.map(({ key, value }) => [
      key,
      value.stringValue ??
        value.boolValue ??
        value.doubleValue ??
        (value.intValue !== undefined ? Number(value.intValue) : undefined),
    ]),
  );
}
