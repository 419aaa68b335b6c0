import type { AgentEvent, AgentRunReply } from '@app/contracts';

/**
 * One run's events as they happen: `run_start` (or `run_resumed`) first, `run_end` last, whose
 * data is the run's reply. Every door translates this one stream into its own protocol. Each
 * event's `seq` is its place among the run's kept events (the SSE `id:`): a stream resumed after
 * it gets the events after it, on any gateway.
 */
export type RunEvents = AsyncIterable<AgentEvent>;

/** Where every run's events are kept for a while, in order, to be read again (`RunEventLog`). */
export interface RunEventSource {
  /** The last event kept for the run, or undefined when none is. */
  last(runId: string): Promise<AgentEvent | undefined>;
  /**
   * Calls `onEvent` with each event kept for the run after the one numbered `afterSeq` (0: all),
   * `seq` set to its place, then with each one as it is kept, until `stop` is called.
   */
  read(runId: string, afterSeq: number, onEvent: (event: AgentEvent) => void): Promise<() => void>;
}

export interface RunEventsOptions {
  /**
   * Events numbered up to this one (`seq`) were seen already: the stream starts after it. Unset:
   * after the last event kept when asked (a request starting a run, or a leg of it, from now on).
   */
  after?: number;
  /** Whether the stream's end waits for the request's own (false for a follower: it charges nothing). */
  waitForReply?: boolean;
  /** After the reply, how long the run's `run_end` may still take to be kept (ms). */
  endGraceMs?: number;
}

/** The reply may reach the gateway before the executor's last events are kept: they are waited for this long. */
const END_GRACE_MS = 5_000;

/**
 * A run's events, from a request that starts, resumes or follows it (`start`, answered with the
 * run's reply). The events are read from where they are kept, from the first one after `after`,
 * before `start` is asked, so no event can be missed. A request refused before the run starts
 * throws at the first event, before anything was written. The stream ends after `run_end`: the
 * executor's own, or one made of the reply when the run kept none (it did not stream) or its own
 * did not come within a grace. A consumer that stops early does not stop the run: it finishes and
 * stays readable at `GET /api/v1/runs/:id`.
 */
export async function* runEvents(
  source: RunEventSource,
  runId: string,
  start: (ended: AbortSignal) => Promise<AgentRunReply>,
  options: RunEventsOptions = {},
): RunEvents {
  const after = options.after ?? (await source.last(runId))?.seq ?? 0;
  const queue = new EventQueue();
  const push = (event: AgentEvent) => queue.push(event);
  let stop = await source.read(runId, after, push);
  let seen = after;
  let reply: AgentRunReply | undefined;
  const ended = new AbortController();
  const answered = start(ended.signal).then(
    (answer) => queue.answer(answer),
    (err: unknown) => queue.fail(err),
  );
  const ending = (data: AgentRunReply): AgentEvent => ({ type: 'run_end', run_id: runId, seq: seen, data });
  try {
    for (;;) {
      // once the reply is in, the run's own last events get a grace each, then the reply ends the stream
      const next = reply ? await queue.nextWithin(options.endGraceMs ?? END_GRACE_MS) : await queue.next();
      if (!next) return yield ending(reply as AgentRunReply);
      if (next.kind === 'reply') {
        reply = next.reply;
        // A run that kept no event did not stream: its reply ends the stream. One that streamed
        // (events seen here) keeps its own run_end, which may come after the reply (stored on three
        // JetStream replicas, its last events can lag the bus's reply): it is waited for, a grace each.
        if (seen === after && !(await keptMore(source, runId, seen))) return yield ending(reply);
        // read again from the last event seen: a reader whose deliveries were lost with the bus
        // connection would only notice at its next heartbeat (events seen twice are skipped)
        stop();
        stop = () => undefined;
        const reread = await source.read(runId, seen, push).catch(() => undefined);
        if (!reread) return yield ending(reply);
        stop = reread;
        continue;
      }
      const event = next.event;
      if (event.seq <= seen) continue;
      seen = event.seq;
      yield event;
      if (event.type === 'run_end') {
        // the request's own end (its usage charged to the key) before the stream's; a follower
        // charges nothing and its run may go on past this run_end (a pause, then another leg)
        if (options.waitForReply ?? true) await answered;
        return;
      }
    }
  } finally {
    stop();
    ended.abort();
  }
}

/** Whether the run kept events after those seen (the reply came first: they are still on their way). */
async function keptMore(source: RunEventSource, runId: string, seen: number): Promise<boolean> {
  const last = await source.last(runId).catch(() => undefined);
  return last !== undefined && last.seq > seen;
}

type Next = { kind: 'event'; event: AgentEvent } | { kind: 'reply'; reply: AgentRunReply };

/**
 * Events pushed by the log, and the request's reply, pulled by the stream; a failure is thrown at
 * the pull after the events before it.
 */
class EventQueue {
  private readonly items: Next[] = [];
  private failure?: { err: unknown };
  private wake?: () => void;

  push(event: AgentEvent): void {
    this.items.push({ kind: 'event', event });
    this.wake?.();
  }

  answer(reply: AgentRunReply): void {
    this.items.push({ kind: 'reply', reply });
    this.wake?.();
  }

  fail(err: unknown): void {
    this.failure ??= { err };
    this.wake?.();
  }

  async next(): Promise<Next> {
    for (;;) {
      const item = this.items.shift();
      if (item) return item;
      if (this.failure) throw this.failure.err;
      await new Promise<void>((resolve) => (this.wake = resolve));
      this.wake = undefined;
    }
  }

  /** The next item, or undefined when none comes within `ms`. */
  async nextWithin(ms: number): Promise<Next | undefined> {
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), ms)));
    try {
      return await Promise.race([this.next(), timedOut]);
    } finally {
      clearTimeout(timer);
    }
  }
}
