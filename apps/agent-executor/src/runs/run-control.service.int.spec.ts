import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AgentEvent, Events, Routes } from '@app/contracts';
import { expectEventually, type Script } from '@app/testing';
import { newId } from '@app/agent-core';
import { DB, type Db } from '@app/persistence';
import { ask } from '../testing/executor-app';
import { delay } from '../testing/test-functions';
import { arithmetic, startWorld, type World } from '../testing/world';

let world: World;

beforeAll(async () => {
  world = await startWorld({
    functions: [
      ...arithmetic,
      {
        name: 'wait',
        params: { ms: { type: 'integer' } },
        run: async ({ ms }) => (await delay(Number(ms)), { message: 'waited' }),
      },
    ],
    agents: [
      { name: 'json', protocol: 'json-action', allowed_tools: ['add'] },
      { name: 'native', protocol: 'native', allowed_tools: ['add'] },
    ],
  });
});
afterAll(() => world?.close());

const cancel = (runId: string) =>
  world.bus.request(Routes.agentRunCancel, { run_id: runId }, { timeoutMs: 10_000 });

function collectEvents(runId: string): { events: AgentEvent[]; ended: Promise<void> } {
  const events: AgentEvent[] = [];
  let done!: () => void;
  const ended = new Promise<void>((resolve) => (done = resolve));
  const subscription = world.bus.subscribe(Events.agentEvents(runId), (event) => {
    events.push(event);
    if (event.type === 'run_end') {
      subscription.unsubscribe();
      done();
    }
  });
  return { events, ended };
}

describe('run events', () => {
  const scripts: Record<string, Script['replies']> = {
    'xml-toon': ['Let me add.\n<call name="add"><p>a: 1</p><p>b: 2</p></call>', 'It is three.'],
    'json-action': [
      'Let me add. {"type":"action","tool":"add","args":{"a":1,"b":2}}',
      '{"type":"final","answer":"It is three."}',
    ],
    native: [
      { text: 'Let me add.', toolCalls: [{ name: 'add', arguments: { a: 1, b: 2 } }] },
      'It is three.',
    ],
  };
  const agents: Record<string, string | undefined> = {
    'xml-toon': undefined,
    'json-action': 'json',
    native: 'native',
  };

  it.each(Object.keys(scripts))(
    'publishes a %s run as run_start, thought, tool_call, tool_result, delta, run_end: the deltas are the answer only',
    async (protocol) => {
      world.script({ replies: scripts[protocol] });
      const runId = newId('run');
      const { events, ended } = collectEvents(runId);
      await world.bus.flush();
      const agent = agents[protocol];
      const reply = await ask(world.bus, {
        message: 'One plus two',
        run_id: runId,
        stream: true,
        ...(agent ? { agent } : {}),
      });
      await ended;
      expect(events.map((e) => e.type)).toEqual([
        'run_start',
        'thought',
        'tool_call',
        'tool_result',
        'delta',
        'run_end',
      ]);
      expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
      const text = (type: string) =>
        events.filter((e) => e.type === type).map((e) => (e.data as { text: string }).text);
      expect(text('thought')).toEqual(['Let me add.']);
      expect(text('delta').join('')).toBe('It is three.');
      expect(text('delta').join('')).toBe(reply.reply);
      expect(events.find((e) => e.type === 'tool_result')?.data).toMatchObject({
        name: 'add',
        status: 'success',
        result: { data: { sum: 3 } },
      });
      expect(events.at(-1)?.data).toEqual(reply);
    },
  );

  it('publishes no delta for an unreadable reply: its text is not an answer', async () => {
    world.script({ replies: ['Let me add. <call name="add"><p>a: 1</p>', 'It is three.'] });
    const runId = newId('run');
    const { events, ended } = collectEvents(runId);
    await world.bus.flush();
    const reply = await ask(world.bus, { message: 'One plus two', run_id: runId, stream: true });
    await ended;
    const deltas = events.filter((e) => e.type === 'delta').map((e) => (e.data as { text: string }).text);
    expect(deltas.join('')).toBe(reply.reply);
  });

  it('publishes nothing for a run that did not ask to stream', async () => {
    world.script({ replies: ['Hi.'] });
    const runId = newId('run');
    const { events } = collectEvents(runId);
    await ask(world.bus, { message: 'Hello', run_id: runId });
    await world.bus.flush();
    expect(events).toEqual([]);
  });

  it('refuses a pre-assigned run id that is taken', async () => {
    world.script({ fallback: 'Hi.' });
    const { run_id } = await ask(world.bus, { message: 'Hello' });
    await expect(ask(world.bus, { message: 'Again', run_id })).rejects.toMatchObject({ code: 'conflict' });
  });
});

describe('cancelling a run', () => {
  it('aborts the model call of a run in flight and ends it with cancelled', async () => {
    world.script({ replies: [{ text: 'too slow', latencyMs: 10_000 }] });
    const runId = newId('run');
    const running = ask(world.bus, { message: 'Think hard', run_id: runId });
    await expectEventually(() => expect(world.llm.requests()).toHaveLength(1));
    const started = Date.now();
    const cancelled = await cancel(runId);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(cancelled).toMatchObject({ run_id: runId, finish_reason: 'cancelled' });
    expect(await running).toMatchObject({ finish_reason: 'cancelled' });
    const run = await world.bus.request(Routes.agentRunGet, { run_id: runId });
    expect(run.status).toBe('cancelled');
  });

  it('stops waiting for a function and tells its provider to cancel the call', async () => {
    world.script({ replies: ['<call name="wait"><p>ms: 10000</p></call>', 'never asked'] });
    const cancels: unknown[] = [];
    const subscription = world.bus.subscribe(Events.fnCancel, (cancel) => cancels.push(cancel));
    const runId = newId('run');
    const running = ask(world.bus, { message: 'Wait', run_id: runId });
    await expectEventually(() => expect(world.functions.calls).toHaveLength(1));
    await cancel(runId);
    expect(await running).toMatchObject({
      finish_reason: 'cancelled',
      function_calls: [{ name: 'wait', status: 'error', result: { code: 'cancelled' } }],
    });
    await expectEventually(() =>
      expect(cancels).toEqual([{ call_id: world.functions.calls[0].request.call_id }]),
    );
    subscription.unsubscribe();
  });

  it('closes a run paused for client tool results, whose results are then refused', async () => {
    world.script({ replies: ['<call name="get_weather"><p>city: Oslo</p></call>'] });
    const paused = await ask(world.bus, {
      message: 'Weather?',
      client_tools: [
        { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } },
      ],
    });
    expect(paused).toMatchObject({
      finish_reason: 'client_tool_calls',
      client_tool_calls: [{ name: 'get_weather', arguments: { city: 'Oslo' } }],
    });
    expect(await cancel(paused.run_id)).toMatchObject({
      finish_reason: 'cancelled',
      session_id: paused.session_id,
    });
    const run = await world.bus.request(Routes.agentRunGet, { run_id: paused.run_id });
    expect(run).toMatchObject({ status: 'cancelled', finish_reason: 'cancelled' });
    const answer = { tool_call_id: paused.client_tool_calls?.[0].id ?? 'missing', content: 'sunny' };
    await expect(ask(world.bus, { message: '', tool_results: [answer] })).rejects.toMatchObject({
      code: 'conflict',
      message: expect.stringContaining('no longer waits for tool results (cancelled)'),
    });
    await expect(cancel(paused.run_id)).rejects.toMatchObject({ code: 'conflict' });
  });

  it.each([
    ['a dead executor', 'gone-4242-deadbeef'],
    ['its live executor, which no longer has it', 'test'],
  ])('closes at once a run recorded as running on %s', async (_, holder) => {
    world.script({ replies: ['Done.'] });
    const { run_id } = await ask(world.bus, { message: 'Quick' });
    const db = world.executor.app.get<Db>(DB);
    await db.run.update({ where: { id: run_id }, data: { status: 'running', lease_owner: holder } });
    expect(await cancel(run_id)).toMatchObject({ run_id, finish_reason: 'cancelled' });
    expect(await world.bus.request(Routes.agentRunGet, { run_id })).toMatchObject({ status: 'cancelled' });
  });

  it('answers not_found for an unknown run and conflict for one that has ended', async () => {
    await expect(cancel('run_unknown')).rejects.toMatchObject({ code: 'not_found' });
    world.script({ replies: ['Done.'] });
    const { run_id } = await ask(world.bus, { message: 'Quick' });
    await expect(cancel(run_id)).rejects.toMatchObject({ code: 'conflict' });
  });
});
