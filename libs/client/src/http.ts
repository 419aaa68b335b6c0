import { AgentChassisError, errorFromResponse } from './errors';

export interface HttpOptions {
  baseUrl: string;
  apiKey?: string;
  fetch: typeof fetch;
  headers: Record<string, string>;
}

export interface RequestOptions {
  body?: unknown;
  query?: Record<string, string | undefined>;
  accept?: string;
  /** Headers of this request only (e.g. `Last-Event-ID`). */
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** Statuses answered with a body rather than thrown (e.g. 503 for `/health`). */
  okStatuses?: number[];
}

/** One HTTP exchange with the gateway: JSON in, JSON out, every failure an AgentChassisError. */
export class Http {
  constructor(private readonly options: HttpOptions) {}

  async json<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
    const res = await this.send(method, path, { accept: 'application/json', ...options });
    if (res.status === 204) return undefined as T;
    const text = await res.text();
    if (!text) return undefined as T;
    try {
      return JSON.parse(text) as T;
    } catch (err) {
      throw new AgentChassisError(
        {
          code: 'internal',
          message: `the gateway answered ${path} with a body that is not JSON`,
          status: res.status,
        },
        { cause: err },
      );
    }
  }

  async send(method: string, path: string, options: RequestOptions = {}): Promise<Response> {
    const url = new URL(path.replace(/^\//, ''), this.options.baseUrl.replace(/\/*$/, '/'));
    for (const [key, value] of Object.entries(options.query ?? {}))
      if (value !== undefined) url.searchParams.set(key, value);
    const headers: Record<string, string> = { ...this.options.headers, ...options.headers };
    if (options.accept) headers.accept = options.accept;
    if (this.options.apiKey) headers.authorization = `Bearer ${this.options.apiKey}`;
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    let res: Response;
    try {
      res = await this.options.fetch(url, {
        method,
        headers,
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
        signal: options.signal,
      });
    } catch (err) {
      if (options.signal?.aborted) throw err;
      const reason = (err as { cause?: { code?: string; message?: string } }).cause;
      throw new AgentChassisError(
        {
          code: 'unavailable',
          message: `cannot reach ${url.origin}: ${reason?.code ?? reason?.message ?? (err as Error).message}`,
          status: 0,
        },
        { cause: err },
      );
    }
    if (!res.ok && !options.okStatuses?.includes(res.status)) throw await errorFromResponse(res);
    return res;
  }
}

export function segment(value: string): string {
  return encodeURIComponent(value);
}
