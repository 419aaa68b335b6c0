import type { Response } from 'express';
import type { AgentEvent, AgentRunReply } from '@app/contracts';

const KEEP_ALIVE_MS = 15_000;

/** How one door writes a run's events on the wire: each returns the SSE text to send ('' for nothing). */
export interface RunStreamFormat {
  /** Extra response headers, from the run's first event (`run_start`). */
  headers(first: AgentEvent): Record<string, string>;
  event(event: AgentEvent): string;
  /** The run's end: `run_end`'s data is the whole reply (`event`, the `run_end` itself, for its id). */
  end(reply: AgentRunReply, event: AgentEvent): string;
  /** A failure after the stream opened, in the door's own error shape. */
  error(err: unknown): string;
}

/**
 * Writes a run's events as Server-Sent Events in a door's format. Headers are written with the
 * first event: a stream that fails before it is thrown, for the error filter to answer as an
 * ordinary error; one that fails later ends with the format's error event. A client that goes
 * away stops the writing, not the run.
 */
export async function sendEventStream(
  res: Response,
  events: AsyncIterable<AgentEvent>,
  format: RunStreamFormat,
): Promise<void> {
  const iterator = events[Symbol.asyncIterator]();
  const gone = () => res.writableEnded || res.destroyed;
  let keepAlive: NodeJS.Timeout | undefined;
  const send = (text: string) => {
    if (text && !gone()) res.write(text);
  };
  try {
    let next = await iterator.next();
    if (next.done) return;
    res.writeHead(200, { ...format.headers(next.value), ...SSE_HEADERS });
    keepAlive = setInterval(() => send(': keep-alive\n\n'), KEEP_ALIVE_MS);
    res.once('close', () => void iterator.return?.());
    for (; !next.done && !gone(); next = await iterator.next()) {
      const event = next.value;
      send(event.type === 'run_end' ? format.end(event.data as AgentRunReply, event) : format.event(event));
    }
  } catch (err) {
    if (!res.headersSent) throw err;
    send(format.error(err));
  } finally {
    clearInterval(keepAlive);
    if (res.headersSent && !res.writableEnded) res.end();
  }
}

const SSE_HEADERS = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache, no-transform',
  connection: 'keep-alive',
  'x-accel-buffering': 'no',
};

/**
 * Writes ready SSE text (each item one or more `data:` blocks) as a stream: for a protocol whose
 * library makes the frames itself (A2A's JSON-RPC responses). Headers go with the first frame, so a
 * failure before it is thrown for the error filter.
 */
export async function sendFrames(res: Response, frames: AsyncIterable<string>): Promise<void> {
  const iterator = frames[Symbol.asyncIterator]();
  let keepAlive: NodeJS.Timeout | undefined;
  const send = (text: string) => {
    if (text && !res.writableEnded && !res.destroyed) res.write(text);
  };
  try {
    let next = await iterator.next();
    res.writeHead(200, SSE_HEADERS);
    keepAlive = setInterval(() => send(': keep-alive\n\n'), KEEP_ALIVE_MS);
    res.once('close', () => void iterator.return?.());
    for (; !next.done && !res.destroyed; next = await iterator.next()) send(next.value);
  } finally {
    clearInterval(keepAlive);
    if (res.headersSent && !res.writableEnded) res.end();
  }
}

/** Aborts when the HTTP connection closes before the response was sent in full. */
export function closedEarly(res: Response): AbortSignal {
  const closed = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) closed.abort();
  });
  return closed.signal;
}
