import type { Response } from 'express';
import type { Bus } from '@app/bus';
import { type AgentEvent, type AgentRunReply, Events, toAppError } from '@app/contracts';

const KEEP_ALIVE_MS = 15_000;

/** How a run's events are written on the wire: each returns the SSE text to send ('' for nothing). */
export interface RunStreamFormat {
  /** Extra response headers, from the run's first event (`run_start`). */
  headers(first: AgentEvent): Record<string, string>;
  event(event: AgentEvent): string;
  /** The run's end: `run_end`'s data is the whole reply. */
  end(reply: AgentRunReply): string;
  error(err: unknown): string;
}

/** The platform's own SSE (`POST /api/v1/chat`): `event: <type>` with the event's data. */
export const platformEvents: RunStreamFormat = {
  headers: () => ({}),
  event: (event) => {
    const id = event.seq > 0 ? `id: ${event.seq}\n` : '';
    return `${id}event: ${event.type}\ndata: ${JSON.stringify(event.data)}\n\n`;
  },
  end: (reply) => `event: run_end\ndata: ${JSON.stringify(reply)}\n\n`,
  error: (err) => `event: error\ndata: ${JSON.stringify({ error: toAppError(err).toBody() })}\n\n`,
};

/**
 * Relays one run's events as Server-Sent Events in the given format, ending after `run_end`.
 * The subscription is made before the request that starts the run is sent, on the same
 * connection, so no event can be missed. Headers are written with the first event: a request
 * refused before the run starts (unknown session, bad agent) is still an ordinary JSON error.
 * A client that goes away does not cancel the run: it finishes and stays readable at
 * `GET /api/v1/runs/:id`.
 */
export async function relayRun(
  bus: Bus,
  res: Response,
  runId: string,
  start: () => Promise<AgentRunReply>,
  format: RunStreamFormat = platformEvents,
): Promise<void> {
  const stream = new EventStream(res, format);
  const subscription = bus.subscribe(Events.agentEvents(runId), (event) => stream.write(event));
  try {
    const reply = await start();
    if (!stream.ended) stream.write({ type: 'run_end', run_id: runId, seq: 0, data: reply });
  } catch (err) {
    if (!stream.opened) throw err;
    if (!stream.ended) stream.error(err);
  } finally {
    subscription.unsubscribe();
    stream.close();
  }
}

class EventStream {
  opened = false;
  ended = false;
  private keepAlive?: NodeJS.Timeout;

  constructor(
    private readonly res: Response,
    private readonly format: RunStreamFormat,
  ) {}

  write(event: AgentEvent): void {
    if (this.ended) return;
    this.open(event);
    if (event.type === 'run_end') {
      this.ended = true;
      this.send(this.format.end(event.data as AgentRunReply));
    } else this.send(this.format.event(event));
  }

  error(err: unknown): void {
    this.send(this.format.error(err));
    this.ended = true;
  }

  /** Ends an opened stream; one never opened is left for the error filter to answer. */
  close(): void {
    clearInterval(this.keepAlive);
    if (this.opened && !this.res.writableEnded) this.res.end();
  }

  private open(first: AgentEvent): void {
    if (this.opened) return;
    this.opened = true;
    this.res.writeHead(200, {
      ...this.format.headers(first),
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    this.keepAlive = setInterval(() => this.send(': keep-alive\n\n'), KEEP_ALIVE_MS);
  }

  private send(text: string): void {
    if (text && !this.res.writableEnded && !this.res.destroyed) this.res.write(text);
  }
}
