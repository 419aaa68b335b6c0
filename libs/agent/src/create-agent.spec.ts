import { describe, expect, it } from 'vitest';
import {
  type CompletionRequest,
  ConfigurationError,
  HookFailed,
  InMemoryRunJournal,
  LimitExceeded,
  type PlanParser,
  promptTokensOf,
  type RunEvent,
  ScriptedModelClient,
} from '@app/agent-core';
import { Param } from '@app/functions';
import { createAgent, createTaskAgent } from './create-agent';
import { defineFunction } from './functions/define-function';
import { SqliteSessionStore } from './sessions/sqlite-session.store';

class WeatherParams {
  @Param({ description: 'city name', required: true }) city!: string;
}

function weather(calls: string[]) {
  return {
    name: 'get_weather',
    description: 'Current weather of a city.',
    params: WeatherParams,
    execute: async ({ city }: WeatherParams) => {
      calls.push(city);
      return { data: { city, temperature_c: 4, sky: 'cloudy' } };
    },
  };
}

const XML_CALL = '<call name="get_weather"><p>city: Oslo</p></call>';

describe('createAgent', () => {
  it('runs a turn that calls an in-process function, with the trace in the result', async () => {
    const calls: string[] = [];
    const model = new ScriptedModelClient([XML_CALL, 'It is 4 °C in Oslo.']);
    const agent = createAgent({
      name: 'weather',
      instructions: 'Answer briefly.',
      model,
      functions: [weather(calls)],
    });

    const result = await agent.run('Weather in Oslo?');

    expect(result).toMatchObject({
      reply: 'It is 4 °C in Oslo.',
      finish_reason: 'final',
      function_calls: [{ name: 'get_weather', status: 'success' }],
    });
    expect(calls).toEqual(['Oslo']);
    expect(result.trace.length).toBeGreaterThan(0);
    expect(model.requests[0].messages[0].content).toMatch(/^Answer briefly\./);
    expect(JSON.stringify(model.requests[1].messages)).toMatch(/cloudy/);
  });

  it('speaks the native protocol and streams the run’s events with send()', async () => {
    const calls: string[] = [];
    const model = new ScriptedModelClient([
      { toolCalls: [{ id: 't1', name: 'get_weather', arguments: { city: 'Bergen' } }] },
      'Rain in Bergen.',
    ]);
    const agent = createAgent({ name: 'w', model, functions: [weather(calls)], protocol: 'native' });

    const stream = agent.send('Weather in Bergen?');
    const types: RunEvent['type'][] = [];
    for await (const event of stream) types.push(event.type);

    expect(types[0]).toBe('run_start');
    expect(types).toContain('tool_call');
    expect(types.at(-1)).toBe('run_end');
    expect((await stream.result).reply).toBe('Rain in Bergen.');
    expect(model.requests[0].tools?.map((t) => t.name)).toEqual(['get_weather']);
  });

  it('feeds a function’s failure and invalid arguments back to the model', async () => {
    const broken = defineFunction({
      name: 'broken',
      description: 'Fails.',
      parameters: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] },
      execute: () => {
        throw new Error('backend down');
      },
    });
    const model = new ScriptedModelClient(['<call name="broken"><p>n: 1</p></call>', 'It failed.']);
    const result = await createAgent({ name: 'b', model, functions: [broken] }).run('go');
    expect(result.function_calls).toMatchObject([{ name: 'broken', status: 'error' }]);
    expect(JSON.stringify(model.requests[1].messages)).toMatch(/backend down/);
  });

  it('takes hooks through the run engine’s port: a before_tool hook denies, one throwing HookFailed stops the run', async () => {
    const calls: string[] = [];
    const deny = createAgent({
      name: 'w',
      model: new ScriptedModelClient([XML_CALL, 'Not allowed.']),
      functions: [weather(calls)],
      hooks: { beforeTool: () => ({ action: 'deny', reason: 'no weather today' }) },
    });
    expect((await deny.run('Weather in Oslo?')).function_calls[0]).toMatchObject({
      status: 'error',
      result: { message: 'no weather today' },
    });
    expect(calls).toEqual([]);
    const stop = createAgent({
      name: 'w',
      model: new ScriptedModelClient(['Hi.']),
      hooks: { beforeLlm: () => Promise.reject(new HookFailed('audit is down')) },
    });
    const stopped = await stop.run('Hello?');
    expect(stopped.finish_reason).toBe('error');
    expect(stopped.reply).toContain('hook_failed: audit is down');
  });

  it('stops at its limits', async () => {
    const model = new ScriptedModelClient([XML_CALL, XML_CALL, XML_CALL]);
    const result = await createAgent({
      name: 'l',
      model,
      functions: [weather([])],
      limits: { maxSteps: 2 },
    }).run('loop');
    expect(result.finish_reason).toBe('max_steps');
    expect(result.failure).toBeInstanceOf(LimitExceeded);
    expect(model.requests).toHaveLength(2);
  });

  it('refuses needs_approval, which no decision could take up in process, naming beforeTool instead', () => {
    const options = { name: 'g', model: new ScriptedModelClient([]), definition: { needs_approval: ['*'] } };
    expect(() => createAgent(options)).toThrow(ConfigurationError);
    expect(() => createTaskAgent(options)).toThrow(/hooks\.beforeTool/);
    const agent = createAgent({ name: 'g', model: new ScriptedModelClient([]) });
    expect(() => agent.withDefinition({ needs_approval: ['*'] })).toThrow(ConfigurationError);
  });

  it('keeps a conversation in a SQLite session across agents', async () => {
    const sessions = await SqliteSessionStore.open(':memory:');
    const model = new ScriptedModelClient(['Hello Ada.', 'Your name is Ada.']);
    const first = createAgent({ name: 's', model, sessions }).session('ses_1');
    await first.submitTurn('I am Ada.');
    const again = createAgent({ name: 's', model, sessions }).session('ses_1');
    const result = await again.submitTurn('Who am I?');
    expect(result.reply).toBe('Your name is Ada.');
    expect(JSON.stringify(model.requests[1].messages)).toMatch(/I am Ada\..*Hello Ada\./);
    expect((await sessions.load('ses_1')).messages).toHaveLength(4);
    sessions.close();
  });

  it('carries out a given plan as a task agent', async () => {
    const calls: string[] = [];
    const model = new ScriptedModelClient(['Oslo is cloudy.']);
    const agent = createTaskAgent({ name: 't', model, functions: [weather(calls)] });
    const result = await agent.executePlan(
      [{ description: 'Look up Oslo', tool: 'get_weather', params: { city: 'Oslo' } }],
      'Report the weather.',
    );
    expect(calls).toEqual(['Oslo']);
    expect(result.plan?.steps).toHaveLength(1);
  });

  it('stops a run at its maxCostUsd, at the price its session gives, and counts the session cost', async () => {
    // every call billed its worst case: its prompt and all 100 tokens of reply, at 1 USD per million each
    const billing = (request: CompletionRequest) => ({
      prompt_tokens: promptTokensOf(request),
      completion_tokens: request.maxTokens ?? 0,
    });
    const model = new ScriptedModelClient([XML_CALL, XML_CALL, 'never'], { billing });
    const probe = new ScriptedModelClient(['probe']);
    const options = { name: 'w', functions: [weather([])], definition: { max_tokens: 100 } };
    await createAgent({ ...options, model: probe }).run('Weather in Oslo?');
    const oneCall = (promptTokensOf(probe.requests[0]) + 100) / 1e6;
    const agent = createAgent({ ...options, model, limits: { maxCostUsd: 1.5 * oneCall } });
    const chat = agent.session(undefined, { pricing: { input_per_mtok: 1, output_per_mtok: 1 } });
    const turn = await chat.submitTurn('Weather in Oslo?');
    expect(turn.finish_reason).toBe('budget');
    expect(model.requests).toHaveLength(1);
    expect(turn.usage.cost_usd).toBeLessThanOrEqual(1.5 * oneCall);
    expect(chat.cost).toBe(turn.usage.cost_usd);
  });

  it('hands its plan parser, run store and clock to the run engine', async () => {
    const cities: PlanParser = {
      parse: (text) => ({
        ok: true,
        steps: text.split(',').map((city) => ({ description: city, tool: 'get_weather', params: { city } })),
      }),
    };
    const store = new InMemoryRunJournal();
    let now = 0;
    const calls: string[] = [];
    const agent = createAgent({
      name: 'p',
      mode: 'plan',
      model: new ScriptedModelClient(['Oslo,Bergen', 'Both cloudy.']),
      functions: [weather(calls)],
      planParser: cities,
      journal: store,
      clock: { now: () => now },
    });
    const chat = agent.session(undefined, { ttlMs: 1_000 });

    const result = await chat.submitTurn('Weather in Oslo and Bergen?');

    expect(calls).toEqual(['Oslo', 'Bergen']);
    expect(store.load(result.run_id).map((entry) => entry.kind)).toEqual([
      'model_step',
      'tool_started',
      'tool_call',
      'tool_started',
      'tool_call',
      'model_step',
    ]);
    now += 1_001;
    await expect(chat.submitTurn('And tomorrow?')).rejects.toMatchObject({ code: 'session_expired' });
  });
});
