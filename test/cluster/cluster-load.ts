import { expect } from 'vitest';
import { readEvents } from '../chat/chat-stack';
import { ADMIN_KEY, type Cluster } from './cluster.harness';

/** Past it a caller counts as having waited past its deadline. */
export const DEADLINE_MS = 60_000;
const RETRY_PAUSE_MS = 200;

/** One conversation as its caller saw it. */
export interface Conversation {
  tag: string;
  stream: boolean;
  started: number;
  ended: number;
  /** The run ids it was answered with (more than one: answered twice). */
  runIds: Set<string>;
  answered: boolean;
  /** Responses the caller got before the answer: 502/503, a dropped connection, a stream cut short. */
  retries: number;
  /** Streams that ended without `run_end`. */
  streamsCut: number;
  /** Some request of it was accepted (a 200 with the run's id or a stream started). */
  accepted: boolean;
  /** What the last unanswered attempt got, to say what went wrong. */
  last?: string;
  /** What each retried attempt got. */
  retriedFor: string[];
}

/**
 * The scripted model's replies for a conversation: it calls the counting function tagged with the
 * turn's message, then answers naming the message (what `converse` checks and counts).
 */
export function conversationReplies(cluster: Cluster) {
  return [
    { toolCalls: [{ name: cluster.fn.name, arguments: { tag: '{{last_user}}' } }] },
    'done: {{last_user}}',
  ];
}

/** The cluster's admin key, as every request of the tests that acts as the operator sends it. */
export const auth = { authorization: `Bearer ${ADMIN_KEY}`, 'content-type': 'application/json' };

/** A new API key with the `chat` scope (and `extra`, e.g. a daily budget), created on `gateway` by the admin. */
export async function newKey(
  gateway: string,
  name: string,
  extra: Record<string, unknown> = {},
): Promise<{ id: string; key: string }> {
  const created = await fetch(`${gateway}/api/v1/keys`, {
    method: 'POST',
    headers: auth,
    body: JSON.stringify({ name: `${name}-${Date.now()}`, scopes: ['chat'], ...extra }),
  });
  expect(created.status).toBe(201);
  return (await created.json()) as { id: string; key: string };
}

/**
 * One conversation: one chat turn (the model calls the counting function tagged with the turn's
 * message, then answers), retried as a careful client does, with the same Idempotency-Key, on
 * 502/503, a dropped connection or a stream cut short, until it has its answer or its deadline.
 */
async function converse(cluster: Cluster, tag: string, stream: boolean): Promise<Conversation> {
  const c: Conversation = {
    tag,
    stream,
    started: Date.now(),
    ended: 0,
    runIds: new Set(),
    answered: false,
    retries: 0,
    streamsCut: 0,
    accepted: false,
    retriedFor: [],
  };
  while (!c.answered && Date.now() - c.started < DEADLINE_MS) {
    try {
      const res = await fetch(`${cluster.base}/api/v1/chat`, {
        method: 'POST',
        headers: { ...auth, 'idempotency-key': `key-${tag}` },
        body: JSON.stringify({ message: tag, stream, agent: 'helper' }),
        signal: AbortSignal.timeout(DEADLINE_MS - (Date.now() - c.started)),
      });
      if (res.status === 200) {
        c.accepted = true;
        if (stream) await readStream(cluster, res, c);
        else {
          const body = (await res.json()) as { run_id: string; reply: string };
          c.runIds.add(body.run_id);
          c.answered = body.reply.includes(tag);
          if (!c.answered) c.last = `200 ${JSON.stringify(body).slice(0, 300)}`;
        }
      } else c.last = `${res.status} ${(await res.text()).slice(0, 300)}`;
    } catch (err) {
      // the connection dropped (its gateway died) or the deadline passed: retried below
      c.last = (err as Error).message;
    }
    if (!c.answered) {
      c.retries += 1;
      c.retriedFor.push(c.last ?? 'no answer');
      await new Promise((resolve) => setTimeout(resolve, RETRY_PAUSE_MS));
    }
  }
  c.ended = Date.now();
  return c;
}

/** Resumes a cut stream at most this many times, as the typed client does. */
const RESUMES = 5;

/**
 * Reads a turn's stream to `run_end`; a stream cut short is resumed, as the typed client does, by
 * `GET /api/v1/runs/:id/events` with `Last-Event-ID` through the load balancer (any gateway). Only
 * a stream that no resume brought to `run_end` counts as cut.
 */
async function readStream(cluster: Cluster, first: Response, c: Conversation): Promise<void> {
  let runId: string | undefined;
  let lastId: string | undefined;
  let ended = false;
  let res: Response | undefined = first;
  for (let resume = 0; !ended && resume <= RESUMES; resume += 1) {
    if (!res) {
      if (!runId) break;
      await new Promise((resolve) => setTimeout(resolve, RETRY_PAUSE_MS));
      res = await fetch(`${cluster.base}/api/v1/runs/${runId}/events`, {
        headers: { ...auth, ...(lastId ? { 'last-event-id': lastId } : {}) },
        signal: AbortSignal.timeout(DEADLINE_MS),
      }).catch(() => undefined);
      if (res?.status !== 200) {
        await res?.text().catch(() => undefined);
        res = undefined;
        continue;
      }
    }
    try {
      await readEvents(res, (event) => {
        if (event.id) lastId = event.id;
        const data = event.data as { run_id?: string; reply?: string };
        if (data.run_id) runId = data.run_id;
        if (event.event === 'run_start' && data.run_id) c.runIds.add(data.run_id);
        if (event.event === 'run_end') {
          ended = true;
          if (data.run_id) c.runIds.add(data.run_id);
          c.answered = (data.reply ?? '').includes(c.tag);
          if (!c.answered) c.last = `run_end ${JSON.stringify(data).slice(0, 300)}`;
        }
      });
    } catch {
      // cut mid-stream: resumed above
    }
    res = undefined;
  }
  if (!ended) c.streamsCut += 1;
}

/**
 * `concurrency` callers, each holding one conversation at a time and starting the next as soon as
 * one ends, half of them streaming; `stop` lets the conversations in flight end and returns all.
 */
export function conversations(cluster: Cluster, concurrency: number, prefix: string) {
  const done: Conversation[] = [];
  let running = true;
  let n = 0;
  const caller = async (i: number) => {
    while (running) done.push(await converse(cluster, `${prefix}-${i}-${n++}`, i % 2 === 0));
  };
  const callers = Array.from({ length: concurrency }, (_, i) => caller(i));
  return {
    done,
    stop: async () => {
      running = false;
      await Promise.all(callers);
      return done;
    },
  };
}

/** What a fault cost the callers of the conversations, the fires and the delays. */
export interface FaultReport {
  fault: string;
  conversations: number;
  acceptedRunsLost: number;
  answeredTwice: number;
  sideEffectsTwice: number;
  streamsEndedWithoutRunEnd: number;
  pastDeadline: number;
  p99DelayMs: number;
  retries: number;
  fires: number;
  firesLost: number;
  firesDoubled: number;
  firesMissing: string[];
  delaysLost: number;
  delaysDoubled: number;
  /** The longest the test's own process (the counting function's provider) was stalled. */
  testLagMaxMs: number;
  /** A few unanswered conversations and what they last got. */
  unanswered: string[];
  /** What the retried attempts got, the most frequent first (each with its count). */
  retriedFor: string[];
}

const percentile = (values: number[], p: number) => {
  if (!values.length) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};

/**
 * Counts what the conversations lost or doubled; the delay is each conversation's time past the
 * median of those that ended before the fault (`faultAt`), the p99 of those that overlapped it.
 */
export function conversationFigures(cluster: Cluster, done: Conversation[], faultAt: number) {
  const before = done.filter((c) => c.ended < faultAt).map((c) => c.ended - c.started);
  const baseline = percentile(before, 50);
  const overlapping = done.filter((c) => c.ended >= faultAt);
  return {
    conversations: done.length,
    acceptedRunsLost: done.filter((c) => c.accepted && !c.answered).length,
    answeredTwice: done.filter((c) => c.runIds.size > 1).length,
    sideEffectsTwice: done.filter((c) => sideEffects(cluster, c.tag) > 1).length,
    streamsEndedWithoutRunEnd: done.reduce((sum, c) => sum + c.streamsCut, 0),
    pastDeadline: done.filter((c) => !c.answered).length,
    p99DelayMs: Math.max(
      0,
      percentile(
        overlapping.map((c) => c.ended - c.started),
        99,
      ) - baseline,
    ),
    retries: done.reduce((sum, c) => sum + c.retries, 0),
    unanswered: done
      .filter((c) => !c.answered)
      .slice(0, 3)
      .map((c) => `${c.tag}: ${c.last}`),
    retriedFor: mostFrequent(done.flatMap((c) => c.retriedFor)),
  };
}

/** The three most frequent of `reasons` (their first 120 characters), each with its count. */
function mostFrequent(reasons: string[]): string[] {
  const counts = new Map<string, number>();
  for (const reason of reasons) counts.set(reason.slice(0, 120), (counts.get(reason.slice(0, 120)) ?? 0) + 1);
  return [...counts]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 3)
    .map(([reason, n]) => `${n}× ${reason}`);
}

/**
 * The function's calls with this tag, as a provider that honours idempotency keys (the platform's
 * function host) would do them: repeats of one key are replays of one call. The test's function
 * records every delivery.
 */
export function sideEffects(cluster: Cluster, tag: string): number {
  const calls = cluster.fn.callsTagged(tag);
  const keyed = new Set(calls.filter((c) => c.key).map((c) => c.key));
  return keyed.size + calls.filter((c) => !c.key).length;
}

/** POST through the load balancer, retried on 502/503 (a request in flight on a dying gateway). */
export async function api(cluster: Cluster, method: string, path: string, body?: unknown) {
  for (let attempt = 0; ; attempt += 1) {
    const res = await fetch(`${cluster.base}${path}`, {
      method,
      headers: auth,
      body: body === undefined ? undefined : JSON.stringify(body),
    }).catch(() => undefined);
    if (res && res.status !== 502 && res.status !== 503)
      return { status: res.status, body: (await res.json().catch(() => ({}))) as Record<string, unknown> };
    if (attempt >= 20) throw new Error(`${method} ${path}: ${res?.status ?? 'no answer'}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}
