import type { IncomingHttpHeaders } from 'node:http';

export interface RecordedRequest {
  id: number;
  at: string;
  method: string;
  path: string;
  /** Credentials are replaced by `***`: the log is served over HTTP. */
  headers: Record<string, string>;
  body: unknown;
  conversation?: string;
  turn?: number;
  /** With the prompt cache emulated: what the request was billed, as its reply's usage said. */
  usage?: { prompt: number; cached: number; written: number; completion: number };
}

const SECRET_HEADERS = new Set(['authorization', 'x-api-key', 'api-key', 'proxy-authorization', 'cookie']);

/** The requests the platform sent, newest last; the oldest are dropped past `limit`. */
export class RequestLog {
  private entries: RecordedRequest[] = [];
  private nextId = 1;

  constructor(private readonly limit: number) {}

  add(
    entry: Omit<RecordedRequest, 'id' | 'at' | 'headers'> & { headers: IncomingHttpHeaders },
  ): RecordedRequest {
    const recorded = {
      ...entry,
      id: this.nextId++,
      at: new Date().toISOString(),
      headers: redacted(entry.headers),
    };
    this.entries.push(recorded);
    if (this.entries.length > this.limit) this.entries.splice(0, this.entries.length - this.limit);
    return recorded;
  }

  list(): RecordedRequest[] {
    return [...this.entries];
  }

  clear(): void {
    this.entries = [];
  }
}

function redacted(headers: IncomingHttpHeaders): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers).map(([name, value]) => [
      name,
      SECRET_HEADERS.has(name) ? '***' : Array.isArray(value) ? value.join(', ') : (value ?? ''),
    ]),
  );
}
