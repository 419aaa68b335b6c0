import type { Bus } from '@app/bus';
import { type AgentEvent, type AgentRunReply, Events } from '@app/contracts';

/**
 * One run's events as they happen: `run_start` (or `run_resumed`) first, `run_end` last, whose
 * data is the run's reply. Every door translates this one stream into its own protocol.
 */
export type RunEvents = AsyncIterable<AgentEvent>;

export interface RunEventsOptions {
  /** Events numbered up to this one (`seq`) were seen already: the stream starts after it. */
  after?: number;
}

/**
 * A run's events, from a request that starts, resumes or follows it (`start`, answered with the
 * run's reply). The subscription is made before `start` is asked, on the same connection, so no
 * event can be missed. A request refused before the run starts throws at the first event, before
 * anything was written. The stream ends after `run_end`: the executor's own, or one made of the
 * reply when the reply comes first. A consumer that stops early does not stop the run: it finishes
 * and stays readable at `GET /api/v1/runs/:id`.
 */
export async function* runEvents(
  bus: Bus,
  runId: string,
  start: () => Promise<AgentRunReply>,
  { after = 0 }: RunEventsOptions = {},
): RunEvents {
  const queue = new EventQueue();
  const subscription = bus.subscribe(Events.agentEvents(runId), (event) => queue.push(event));
  const answered = start().then(
    (reply) => queue.push({ type: 'run_end', run_id: runId, seq: 0, data: reply }),
    (err: unknown) => queue.fail(err),
  );
  try {
    for (;;) {
      const event = await queue.next();
      if (event.seq > 0 && event.seq <= after) continue;
      yield event;
      if (event.type === 'run_end') {
        // the request's own end (its usage charged to the key) before the stream's
        await answered;
        return;
      }
    }
  } finally {
    subscription.unsubscribe();
  }
}

/** Events pushed by the bus, pulled by the stream; a failure is thrown at the pull after the events before it. */
class EventQueue {
  private readonly events: AgentEvent[] = [];
  private failure?: { err: unknown };
  private wake?: () => void;

  push(event: AgentEvent): void {
    this.events.push(event);
    this.wake?.();
  }

  fail(err: unknown): void {
    this.failure ??= { err };
    this.wake?.();
  }

  async next(): Promise<AgentEvent> {
    for (;;) {
      const event = this.events.shift();
      if (event) return event;
      if (this.failure) throw this.failure.err;
      await new Promise<void>((resolve) => (this.wake = resolve));
      this.wake = undefined;
    }
  }
}
