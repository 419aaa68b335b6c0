// Resumable streams: a run's SSE stream whose connection drops, or whose gateway dies, goes on with
// `GET /api/v1/runs/:id/events` and `Last-Event-ID` on either of two gateways (the same NATS and
// database; each service its own NATS user of deploy/nats/auth.conf): exactly the events after the
// last one received, none twice, ending with `run_end` — while the run goes on, and after it ended.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentChassisClient, type ChatEvent } from '@app/client';
import type { RunView } from '@app/contracts';
import { expectEventually } from '@app/testing';
import type { SseEvent } from '../chat/chat-stack';
import { readStream, startStreamStack, type StreamStack } from './stream-stack';

const addCall = (a: number, b: number) => `<call name="add"><p>a: ${a}</p><p>b: ${b}</p></call>`;
/** A turn that calls `add`, then takes a while to answer: the stream is cut in between. */
const SLOW_ANSWER = {
  rules: [{ match: '/<result/', reply: { text: 'The sum is five.', latencyMs: 1_500 } }],
};
const cutAtToolResult = (event: SseEvent) => event.event === 'tool_result';

describe('a stream resumed with Last-Event-ID (two gateways, NATS users, the scripted model)', () => {
  let stack: StreamStack;
  let a: string;
  let b: string;

  beforeAll(async () => {
    stack = await startStreamStack();
    [a, b] = stack.gateways.map((g) => g.base);
  });
  afterAll(() => stack?.close());

  const startTurn = (base: string, message: string) => {
    stack.llm.setScript({
      ...SLOW_ANSWER,
      rules: [...SLOW_ANSWER.rules, { match: message, reply: addCall(2, 3) }],
    });
    return readStream(
      `${base}/api/v1/chat`,
      { method: 'POST', body: { message, stream: true } },
      cutAtToolResult,
    );
  };
  const resume = (base: string, runId: string, lastEventId?: string) =>
    readStream(`${base}/api/v1/runs/${runId}/events`, {
      headers: lastEventId === undefined ? {} : { 'last-event-id': lastEventId },
    });
  const runIdOf = (events: SseEvent[]) => (events[0].data as { run_id: string }).run_id;
  const finished = (base: string, runId: string) =>
    expectEventually(async () => {
      const run = (await (await fetch(`${base}/api/v1/runs/${runId}`)).json()) as RunView;
      expect(run.status).toBe('completed');
    });

  /** The first part and the resumed part, together, are every event the run kept, each once, in order. */
  const expectWhole = async (base: string, runId: string, first: SseEvent[], rest: SseEvent[]) => {
    const ids = [...first, ...rest].map((e) => e.id);
    expect(ids.every((id) => id !== undefined && /^\d+$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    expect(rest.at(-1)?.event).toBe('run_end');
    expect((rest.at(-1)?.data as { reply: string }).reply).toBe('The sum is five.');
    const whole = await resume(base, runId);
    expect(whole.status).toBe(200);
    expect([...first, ...rest]).toEqual(whole.events);
  };

  it('goes on after the last event a dropped stream received, while the run goes on', async () => {
    const first = await startTurn(a, 'resume-live');
    expect(first.cut).toBe(true);
    expect(first.events.map((e) => e.event)).toEqual(['run_start', 'tool_call', 'tool_result']);
    const runId = runIdOf(first.events);
    const rest = await resume(a, runId, first.events.at(-1)!.id);
    expect(rest.status).toBe(200);
    expect(rest.events[0].event).not.toBe('tool_result');
    await expectWhole(a, runId, first.events, rest.events);
  });

  it('goes on after the run finished: the rest of its events, then run_end', async () => {
    const first = await startTurn(a, 'resume-after-end');
    const runId = runIdOf(first.events);
    await finished(a, runId);
    const rest = await resume(a, runId, first.events.at(-1)!.id);
    expect(rest.events.map((e) => e.event)).toContain('delta');
    await expectWhole(a, runId, first.events, rest.events);
  });

  it('goes on on the other gateway when the stream’s own is killed', async () => {
    const [, second] = stack.gateways;
    const first = await startTurn(b, 'resume-elsewhere');
    await second.process.kill();
    const runId = runIdOf(first.events);
    const rest = await resume(a, runId, first.events.at(-1)!.id);
    expect(rest.status).toBe(200);
    await expectWhole(a, runId, first.events, rest.events);
  });

  it('ends at once with run_end when resumed after the run_end it got', async () => {
    stack.llm.setScript({ replies: ['Done.'] });
    const whole = await readStream(`${a}/api/v1/chat`, {
      method: 'POST',
      body: { message: 'short', stream: true },
    });
    const end = whole.events.at(-1)!;
    expect(end.event).toBe('run_end');
    expect(end.id).toMatch(/^\d+$/);
    const again = await resume(a, runIdOf(whole.events), end.id);
    expect(again.events.map((e) => [e.event, e.id])).toEqual([['run_end', end.id]]);
  });

  it('refuses an id that is not one, and a run that does not exist, before streaming', async () => {
    const bad = await resume(a, 'run_0123456789abcdef0123456789abcdef', 'yesterday');
    expect([bad.status, (bad.body as { error: { code: string } }).error.code]).toEqual([400, 'bad_request']);
    const missing = await resume(a, 'run_0123456789abcdef0123456789abcdef', '3');
    expect([missing.status, (missing.body as { error: { code: string } }).error.code]).toEqual([
      404,
      'not_found',
    ]);
  });

  it('the typed client resumes a dropped stream by itself, with Last-Event-ID', async () => {
    const asked: string[] = [];
    let cuts = 0;
    const cuttingFetch: typeof fetch = async (input, init) => {
      const res = await fetch(input, init);
      const lastEventId = new Headers(init?.headers).get('last-event-id');
      asked.push(
        `${init?.method ?? 'GET'} ${new URL(String(input)).pathname}${lastEventId ? ` after ${lastEventId}` : ''}`,
      );
      if (cuts > 0 || !res.body || !res.headers.get('content-type')?.startsWith('text/event-stream'))
        return res;
      cuts++;
      return new Response(cutAfter(res.body, 'event: tool_result'), {
        status: res.status,
        headers: res.headers,
      });
    };
    stack.llm.setScript({
      ...SLOW_ANSWER,
      rules: [...SLOW_ANSWER.rules, { match: 'client-resume', reply: addCall(2, 3) }],
    });
    const client = new AgentChassisClient({ baseUrl: a, fetch: cuttingFetch });
    const events: ChatEvent[] = [];
    for await (const event of client.chatStream({ message: 'client-resume' })) events.push(event);

    const runId = (events[0].data as { run_id: string }).run_id;
    const toolResult = events.find((e) => e.type === 'tool_result');
    expect(asked).toEqual(['POST /api/v1/chat', `GET /api/v1/runs/${runId}/events after ${toolResult?.id}`]);
    const whole = await resume(a, runId);
    expect(events.map((e) => [e.type, e.id, e.data])).toEqual(
      whole.events.map((e) => [e.event, e.id, e.data]),
    );
    expect(events.at(-1)?.type).toBe('run_end');
  });

  it('leaves no NATS permission violation in the broker’s log', () => {
    expect(stack.nats.violations()).toEqual([]);
  });
});

/**
 * The body of a stream, cut as a dropped connection cuts it: passed on up to the end of the event
 * whose text includes `marker`, then the connection is closed and the reader gets fetch's error.
 */
function cutAfter(body: ReadableStream<Uint8Array>, marker: string): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  let text = '';
  let sent = 0;
  return new ReadableStream({
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) return controller.close();
      text += decoder.decode(value, { stream: true });
      const at = text.indexOf(marker);
      const end = at < 0 ? -1 : text.indexOf('\n\n', at);
      controller.enqueue(encoder.encode(text.slice(sent, end < 0 ? text.length : end + 2)));
      sent = text.length;
      if (end < 0) return;
      await reader.cancel();
      controller.error(new TypeError('terminated'));
    },
  });
}
