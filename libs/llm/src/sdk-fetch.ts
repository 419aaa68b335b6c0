import type { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';

/**
 * The `fetch` the LLM SDKs call: undici's `request` over a keep-alive dispatcher (through the
 * configured proxy when there is one), its body handed over as a web stream. undici's own `fetch`
 * (and Node's, which is the same code) spends ~0.3–0.4 ms more CPU per model call than `request`
 * (bench/llm-fetch; docs/benchmarks.md), which on a busy executor is a turn in every fifteen.
 * undici is loaded at the first call, not with the fetch: a process that holds a model and has not
 * called it yet (an idle embedded agent) does not carry its ~10 MB (docs/benchmarks.md).
 */
export type Fetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

const NULL_BODY_STATUSES = new Set([101, 204, 205, 304]);
/** Idle keep-alive sockets are closed before a server would close them under us. */
const IDLE_SOCKET_MS = 4_000;

/** `proxy`: send through this HTTP(S) proxy, except to `noProxy` hosts. */
export function createSdkFetch(proxy?: { url: string; noProxy: string[] }): Fetch {
  let loaded: Promise<Transport> | undefined;
  return async (input, init = {}) => {
    const url = input instanceof Request ? input.url : input;
    const protocol = new URL(url).protocol;
    if (protocol !== 'http:' && protocol !== 'https:')
      throw new TypeError(`fetch: unsupported protocol ${protocol}`);
    const body = requestBody(init.body);
    const { request, dispatcher } = await (loaded ??= transport(proxy));
    let res: Dispatcher.ResponseData;
    try {
      res = await request(url, {
        method: (init.method ?? 'GET') as Dispatcher.HttpMethod,
        // undici takes the SDK's Headers as they are (an iterable of pairs): no copy a call.
        headers: init.headers instanceof Headers ? init.headers : new Headers(init.headers),
        body,
        signal: init.signal ?? undefined,
        dispatcher,
      });
    } catch (err) {
      throw asFetchError(err, init.signal);
    }
    const headers = responseHeaders(res.headers);
    if (init.method === 'HEAD' || NULL_BODY_STATUSES.has(res.statusCode)) {
      res.body.resume();
      return new Response(null, { status: res.statusCode, headers });
    }
    const content = isJson(headers) ? await wholeBody(res.body, init.signal) : webStream(res.body);
    return new Response(content, { status: res.statusCode, headers });
  };
}

/**
 * A JSON reply is read whole by the SDKs anyway: read here at once, it spares the web stream's
 * pulls (0.02 to 0.05 ms of CPU a model call, bench/llm-fetch). The read is within the SDK's timeout: a
 * timeout or cancel meanwhile rejects as fetch would (AbortError), any other failure surfaces
 * where it would with a streamed body: when the SDK reads it.
 */
async function wholeBody(
  body: Dispatcher.ResponseData['body'],
  signal: RequestInit['signal'],
): Promise<Uint8Array | ReadableStream<Uint8Array>> {
  try {
    return await body.bytes();
  } catch (err) {
    if (signal?.aborted) throw asFetchError(err, signal);
    return new ReadableStream({ start: (controller) => controller.error(err) });
  }
}

function isJson(headers: Headers): boolean {
  return /^application\/(?:[\w.+-]*\+)?json\b/i.test(headers.get('content-type') ?? '');
}

type Undici = typeof import('undici');
interface Transport {
  request: Undici['request'];
  dispatcher: Dispatcher;
}

async function transport(proxy?: { url: string; noProxy: string[] }): Promise<Transport> {
  const { Agent, EnvHttpProxyAgent, interceptors, request } = await import('undici');
  const base = proxy
    ? new EnvHttpProxyAgent({
        httpProxy: proxy.url,
        httpsProxy: proxy.url,
        noProxy: proxy.noProxy.join(','),
        keepAliveTimeout: IDLE_SOCKET_MS,
      })
    : new Agent({ keepAliveTimeout: IDLE_SOCKET_MS });
  // As fetch does: a compressed body is handed over decoded, without its encoding headers.
  return { request, dispatcher: base.compose(interceptors.decompress()) };
}

/**
 * Pulled, not pushed: `Readable.toWeb` keeps enqueueing into a stream the SDK has cancelled (an
 * error reply it does not read) and throws from the socket's data event.
 */
function webStream(body: Readable): ReadableStream<Uint8Array> {
  const chunks = body[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const next = await chunks.next();
        if (next.done) controller.close();
        else
          controller.enqueue(new Uint8Array(next.value.buffer, next.value.byteOffset, next.value.byteLength));
      },
      async cancel() {
        await chunks.return?.();
      },
    },
    { highWaterMark: 0 },
  );
}

function requestBody(body: RequestInit['body']): string | Uint8Array | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string' || body instanceof Uint8Array) return body;
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  throw new TypeError('fetch: only string and byte bodies are supported');
}

function responseHeaders(raw: Record<string, string | string[] | undefined>): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  return headers;
}

/** The SDKs tell a timeout or cancel (AbortError) from a network failure (TypeError) as fetch reports them. */
function asFetchError(err: unknown, signal: RequestInit['signal']): Error {
  if (signal?.aborted) {
    const abort = new Error('This operation was aborted', { cause: err });
    abort.name = 'AbortError';
    return abort;
  }
  return new TypeError('fetch failed', { cause: err });
}
