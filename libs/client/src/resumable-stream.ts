import { Backoff, type BackoffPolicy, sleep } from '@app/retry';
import { AgentChassisError } from './errors';
import { readSse } from './sse';
import type { ChatEvent } from './types';

/** Waits before each reconnect of a dropped stream: 0.25 s, doubling, up to 4 s. */
export const RECONNECT_POLICY: BackoffPolicy = { firstMs: 250, maxMs: 4_000 };
/** Reconnects in a row (no event received in between) before the stream gives up. */
export const MAX_RECONNECTS = 6;

export interface ResumableStream {
  /** The first leg's events (the request that started the stream). */
  first: AsyncIterable<ChatEvent>;
  /** The run's events after the event `lastEventId` names, on a new connection (`GET /api/v1/runs/:id/events`). */
  resume: (runId: string, lastEventId: string) => Promise<AsyncIterable<ChatEvent>>;
  /** The run, when known before its first event (a decision's stream). */
  runId?: string;
  signal?: AbortSignal;
  /** Told before each reconnect. */
  onReconnect?: (attempt: number, lastEventId: string) => void;
  /** The waits and the most reconnects in a row (`RECONNECT_POLICY`, `MAX_RECONNECTS` by default). */
  reconnects?: { policy: BackoffPolicy; max: number };
}

/**
 * A run's events to its `run_end` (or `error`) across dropped connections: when a stream breaks
 * or ends early, once it has told its run and given an event id, it is resumed after that id,
 * with backoff, a bounded number of times in a row. Nothing is received twice or skipped: the
 * gateway sends exactly the events after the id. A stream that cannot resume throws `unavailable`.
 */
export async function* resumable(stream: ResumableStream): AsyncGenerator<ChatEvent, void, undefined> {
  const { policy, max } = stream.reconnects ?? { policy: RECONNECT_POLICY, max: MAX_RECONNECTS };
  const backoff = new Backoff(policy);
  let runId = stream.runId;
  let lastEventId: string | undefined;
  let leg: AsyncIterable<ChatEvent> | undefined = stream.first;
  let dropped: unknown;
  for (;;) {
    if (leg) {
      try {
        for await (const event of leg) {
          runId ??= runOf(event);
          if (event.id) lastEventId = event.id;
          backoff.reset();
          yield event;
          if (event.type === 'run_end' || event.type === 'error') return;
        }
        dropped = undefined;
      } catch (err) {
        if (stream.signal?.aborted || !isDrop(err)) throw err;
        dropped = err;
      }
    }
    if (!runId || !lastEventId || backoff.retries >= max) throw endedEarly(dropped, runId);
    await sleep(backoff.next());
    stream.signal?.throwIfAborted();
    stream.onReconnect?.(backoff.retries, lastEventId);
    leg = await stream.resume(runId, lastEventId).catch((err: unknown) => {
      if (stream.signal?.aborted || !isDrop(err)) throw err;
      dropped = err;
      return undefined;
    });
  }
}

function runOf(event: ChatEvent): string | undefined {
  if (event.type !== 'run_start' && event.type !== 'run_resumed') return undefined;
  const runId = (event.data as { run_id?: unknown }).run_id;
  return typeof runId === 'string' ? runId : undefined;
}

/** A failure of the connection (or of a gateway going away), not an answer: resuming may help. */
function isDrop(err: unknown): boolean {
  if (err instanceof AgentChassisError)
    return err.status === 0 || err.status === 502 || err.status === 503 || err.status === 504;
  // fetch's body stream breaks with a TypeError ('terminated') or an abort-like error of the socket
  return err instanceof Error && err.name !== 'AbortError';
}

function endedEarly(cause: unknown, runId: string | undefined): AgentChassisError {
  const where = runId ? `; the run goes on: GET /api/v1/runs/${runId}` : '';
  return new AgentChassisError(
    { code: 'unavailable', message: `the event stream ended before run_end${where}`, status: 0 },
    cause === undefined ? undefined : { cause },
  );
}

/** One response's events of the types the client knows, as they come, to `run_end` or `error`. */
export async function* chatEvents(
  res: Response,
  types: Readonly<Record<string, true>>,
  signal: AbortSignal | undefined,
): AsyncGenerator<ChatEvent, void, undefined> {
  if (!res.body)
    throw new AgentChassisError({
      code: 'internal',
      message: 'the event stream has no body',
      status: res.status,
    });
  for await (const message of readSse(res.body, signal)) {
    if (!Object.hasOwn(types, message.event)) continue;
    let data: unknown;
    try {
      data = JSON.parse(message.data);
    } catch (err) {
      throw new AgentChassisError(
        { code: 'internal', message: `the '${message.event}' event's data is not JSON`, status: res.status },
        { cause: err },
      );
    }
    const event = { type: message.event, data, ...(message.id ? { id: message.id } : {}) } as ChatEvent;
    yield event;
    if (event.type === 'run_end' || event.type === 'error') return;
  }
}
