import { describe, expect, it } from 'vitest';
import { Cancelled, LimitExceeded, ModelError } from '../errors';
import type { RunEvent } from '../events';
import { InMemoryFunctions } from '../testing/in-memory-functions';
import { action, finalAnswer, harness, nativeCall, numberFunction } from '../testing/fixtures.fixture';

describe('ReAct: how a run ends', () => {
  it('final: calls a function, reads its result, answers', async () => {
    const { agent, functions, model } = harness([action('add', { a: 2, b: 3 }), finalAnswer('5')]);
    const result = await agent.run('What is 2 + 3?');
    expect(result.failure).toBeUndefined();
    expect(result).toMatchObject({ finish_reason: 'final', reply: '5', phase: 'completed' });
    expect(functions.calls.map((call) => [call.name, call.args])).toEqual([['add', { a: 2, b: 3 }]]);
    expect(result.function_calls).toEqual([{ name: 'add', status: 'success', result: { data: { sum: 5 } } }]);
    expect(result.usage).toEqual({ prompt_tokens: 20, completion_tokens: 10 });
    expect(model.requests[1].messages.at(-1)?.content).toContain('5');
  });

  it('max_steps: stops before a model call past the limit', async () => {
    const { agent } = harness([action('add', { a: 1, b: 1 }), action('add', { a: 1, b: 1 })], {
      max_steps: 2,
    });
    const result = await agent.run('loop');
    expect(result).toMatchObject({ finish_reason: 'max_steps', phase: 'failed' });
    expect(result.reply).toContain('limit of 2 steps');
    expect(result.failure).toBeInstanceOf(LimitExceeded);
    expect(result.failure).toMatchObject({ code: 'max_steps', isRecoverable: false });
  });

  it('max_tool_calls: refuses the calls past the limit and ends the run', async () => {
    const { agent, functions } = harness([action('add', { a: 1, b: 1 }), action('add', { a: 1, b: 1 })], {
      max_tool_calls: 1,
    });
    const result = await agent.run('loop');
    expect(result.finish_reason).toBe('max_tool_calls');
    expect(functions.calls).toHaveLength(1);
    expect(result.function_calls[1]).toMatchObject({ status: 'error', result: { code: 'rate_limited' } });
  });

  it('budget: the token budget stops the run before calls nobody will read', async () => {
    const { agent, functions } = harness([action('add', { a: 1, b: 1 })], { total_token_budget: 10 });
    const result = await agent.run('spend');
    expect(result.finish_reason).toBe('budget');
    expect(functions.calls).toHaveLength(0);
  });

  it('timeout: the deadline aborts a call in flight', async () => {
    const functions = new InMemoryFunctions().add(
      numberFunction('wait'),
      (_args, request) =>
        new Promise((_resolve, reject) =>
          request.signal.addEventListener('abort', () => reject(new Error('stopped'))),
        ),
    );
    const { agent } = harness([action('wait', { a: 1, b: 1 })], { run_timeout: 30 }, { functions });
    const result = await agent.run('wait');
    expect(result).toMatchObject({ finish_reason: 'timeout', phase: 'failed' });
  });

  it('cancelled: cancelling the stream stops the run', async () => {
    let started!: () => void;
    const calling = new Promise<void>((resolve) => (started = resolve));
    const functions = new InMemoryFunctions().add(numberFunction('wait'), (_args, request) => {
      started();
      return new Promise((_resolve, reject) =>
        request.signal.addEventListener('abort', () => reject(new Error('x'))),
      );
    });
    const { agent } = harness([action('wait', { a: 1, b: 1 })], {}, { functions });
    const stream = agent.send('wait');
    await calling;
    stream.cancel();
    const result = await stream.result;
    expect(result).toMatchObject({ finish_reason: 'cancelled', phase: 'cancelled' });
    expect(result.failure).toBeInstanceOf(Cancelled);
  });

  it('parse_error: one repair round, then the run ends', async () => {
    const { agent, model } = harness(['not json', 'still not json']);
    const result = await agent.run('hi');
    expect(result.finish_reason).toBe('parse_error');
    expect(model.requests).toHaveLength(2);
    expect(model.requests[1].messages.at(-2)).toEqual({ role: 'assistant', content: 'not json' });
    expect(result.trace.map((step) => step.kind)).toEqual(['parse_error', 'parse_error']);
  });

  it('the repair round: a readable reply after one unreadable one carries on', async () => {
    const { agent } = harness(['oops', finalAnswer('fine')]);
    expect(await agent.run('hi')).toMatchObject({ finish_reason: 'final', reply: 'fine' });
  });

  it('the repair round for native tool calls whose arguments could not be read', async () => {
    const unreadable = () => ({
      error: new ModelError('llm_bad_response', 'the arguments of tool call add are not valid JSON'),
    });
    const { agent, model, functions } = harness(
      [unreadable(), nativeCall('c1', 'add', { a: 1, b: 2 }), 'Three.'],
      { protocol: 'native' },
    );
    const result = await agent.run('1 + 2?');
    expect(result).toMatchObject({ finish_reason: 'final', reply: 'Three.' });
    expect(model.requests[1].messages.at(-1)).toEqual({
      role: 'user',
      content:
        'Your reply could not be read: the arguments of tool call add are not valid JSON. Call the function again with a JSON object as its arguments.',
    });
    expect(functions.calls).toHaveLength(1);
    expect(result.trace.map((step) => step.kind)).toEqual(['parse_error', 'action', 'final']);

    const twice = harness([unreadable(), unreadable()], { protocol: 'native' });
    expect((await twice.agent.run('1 + 2?')).finish_reason).toBe('parse_error');
    expect(twice.model.requests).toHaveLength(2);
  });

  it('a model error that may pass is recoverable; one that will not is not', async () => {
    const { agent } = harness([{ error: new ModelError('llm_rate_limited', 'slow down', 429) }]);
    const result = await agent.run('hi');
    expect(result.finish_reason).toBe('error');
    expect(result.failure).toMatchObject({ code: 'llm_rate_limited', isRecoverable: true });
    expect(new ModelError('llm_auth', 'bad key').isRecoverable).toBe(false);
  });

  it('error: a model error ends the run with the upstream failure', async () => {
    const failure = new ModelError('llm_auth', 'bad key', 401, 'invalid_api_key');
    const { agent } = harness([{ error: failure }]);
    const result = await agent.run('hi');
    expect(result).toMatchObject({
      finish_reason: 'error',
      error: { code: 'upstream_error', details: { llm_error: 'llm_auth', status: 401 } },
    });
    expect(result.failure).toBeInstanceOf(ModelError);
    expect(result.failure).toMatchObject({ code: 'llm_auth', status: 401, providerCode: 'invalid_api_key' });
  });
});

describe('ReAct: tool steps', () => {
  it('runs one reply’s calls concurrently and returns them in call order', async () => {
    const order: string[] = [];
    let releaseSlow!: () => void;
    const slowGate = new Promise<void>((resolve) => (releaseSlow = resolve));
    const functions = new InMemoryFunctions()
      .add(numberFunction('slow'), async () => {
        await slowGate;
        order.push('slow');
        return { data: { v: 'slow' } };
      })
      .add(numberFunction('fast'), () => {
        order.push('fast');
        releaseSlow();
        return { data: { v: 'fast' } };
      });
    const { agent } = harness(
      [
        {
          text: '',
          toolCalls: [
            { id: 'c1', name: 'slow', arguments: { a: 1, b: 1 } },
            { id: 'c2', name: 'fast', arguments: { a: 1, b: 1 } },
          ],
        },
        'done',
      ],
      { protocol: 'native' },
      { functions },
    );
    const result = await agent.run('both');
    expect(order).toEqual(['fast', 'slow']);
    expect(result.function_calls.map((call) => call.name)).toEqual(['slow', 'fast']);
  });

  it('feeds a refused call back to the model and never retries it', async () => {
    const { agent, functions, model } = harness(
      [nativeCall('c1', 'divide', { a: 1, b: 0 }), nativeCall('c2', 'add', { a: 1 }), 'gave up'],
      { protocol: 'native', allowed_tools: ['add'] },
    );
    const result = await agent.run('try');
    expect(result.function_calls.map((call) => (call.result as { code: string }).code)).toEqual([
      'forbidden',
      'invalid_params',
    ]);
    expect(functions.calls).toHaveLength(0);
    expect(model.requests[1].messages.at(-1)).toMatchObject({ role: 'tool', toolCallId: 'c1' });
  });

  it('streams the events the chat API streams, in order, ending with run_end', async () => {
    const { agent } = harness([action('add', { a: 2, b: 3 }), finalAnswer('5')]);
    const stream = agent.send('2 + 3?');
    const events: RunEvent[] = [];
    for await (const event of stream) events.push(event);
    expect(events.map((event) => event.type)).toEqual([
      'run_start',
      'tool_call',
      'tool_result',
      'delta',
      'run_end',
    ]);
    expect(events.map((event) => event.seq)).toEqual([1, 2, 3, 4, 5]);
    expect(events.at(-1)?.data).toMatchObject({ finish_reason: 'final', reply: '5' });
  });

  it('holds the run for the caller when the model calls a client tool', async () => {
    const { agent } = harness([action('ask_user', { question: 'Which?' })]);
    const result = await agent.run({
      message: 'help',
      runId: 'run_1',
      clientTools: [
        { name: 'ask_user', parameters: { type: 'object', properties: { question: { type: 'string' } } } },
      ],
    });
    expect(result).toMatchObject({
      finish_reason: 'client_tool_calls',
      phase: 'awaiting_tool_results',
      client_tool_calls: [{ id: 'call_run_1_0', name: 'ask_user', arguments: { question: 'Which?' } }],
    });
  });
});
