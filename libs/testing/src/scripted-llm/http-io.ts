import type { IncomingMessage, ServerResponse } from 'node:http';
import { type SsePayload, WireError } from './wire-common';

const MAX_BODY_BYTES = 20 * 1024 * 1024;

export async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new WireError(413, `request body exceeds ${MAX_BODY_BYTES} bytes`);
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  try {
    return JSON.parse(text);
  } catch {
    throw new WireError(
      400,
      `We could not parse the JSON body of your request. (${text.length} bytes received)`,
    );
  }
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  if (res.destroyed) return;
  const payload = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(payload),
    ...headers,
  });
  res.end(payload);
}

/** Writes a whole event stream at once; the socket splits it into packets as it likes. */
export function sendSse(res: ServerResponse, payloads: SsePayload[]): void {
  if (res.destroyed) return;
  res.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
  });
  for (const { event, data } of payloads) {
    const line = `data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`;
    res.write(event ? `event: ${event}\n${line}` : line);
  }
  res.end();
}

/** Waits like a model thinking; resolves false early if the client hung up (a timeout, an abort). */
export function thinkFor(ms: number, res: ServerResponse): Promise<boolean> {
  if (ms <= 0) return Promise.resolve(!res.destroyed);
  return new Promise((resolve) => {
    const onClose = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      res.off('close', onClose);
      resolve(!res.destroyed);
    }, ms);
    res.once('close', onClose);
  });
}
