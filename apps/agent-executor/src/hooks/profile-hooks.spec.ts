import { afterEach, describe, expect, it } from 'vitest';
import { DEFINITION_DEFAULTS, HookFailed, RunState, type ToolCall } from '@app/agent-core';
import type { HookContext, HookEvent, HookPolicy } from '@app/contracts';
import type { HookCallRecord } from './hook-record';
import type { HookRequest, HookTarget } from './hook-target';
import { type BoundHook, ProfileHooks } from './profile-hooks';

const runs: RunState[] = [];
afterEach(() => runs.splice(0).forEach((run) => run.close()));

function newRun(): RunState {
  const identity = { runId: 'run_1', sessionId: 'ses_1', principal: 'ops', scopes: ['chat' as const] };
  const run = new RunState(identity, { ...DEFINITION_DEFAULTS, name: 'helper' }, { timeoutMs: 60_000 });
  runs.push(run);
  return run;
}

/** A target answering with `reply` (a function of the request), or never when `hang`. */
function target(label: string, reply: (request: HookRequest) => unknown, hang = false) {
  const requests: HookRequest[] = [];
  const fake: HookTarget = {
    label,
    call: (request) => {
      requests.push(request);
      if (hang) return new Promise(() => undefined);
      return Promise.resolve().then(() => reply(request));
    },
  };
  return { fake, requests };
}

function bind(
  event: HookEvent,
  fake: HookTarget,
  policy: HookPolicy = 'fail_open',
  timeout_ms = 1_000,
): BoundHook {
  return { spec: { event, function: 'f', timeout_ms, policy }, target: fake };
}

function hooksOf(...bound: BoundHook[]) {
  const records: HookCallRecord[] = [];
  return { hooks: new ProfileHooks(bound, (_run, record) => records.push(record)), records };
}

const call: ToolCall = { name: 'add', params: { a: 1, b: 2 } };

describe('profile hooks: before_tool decisions', () => {
  it.each([
    [undefined, undefined],
    [{}, undefined],
    [{ decision: 'allow' }, undefined],
    [
      { decision: 'deny', reason: 'not on Sundays' },
      { action: 'deny', reason: 'not on Sundays' },
    ],
    [{ decision: 'deny' }, { action: 'deny', reason: 'refused by a before_tool hook' }],
    [
      { decision: 'rewrite', arguments: { a: 10, b: 20 } },
      { action: 'rewrite', args: { a: 10, b: 20 } },
    ],
  ])('reply %j → %j', async (reply, decision) => {
    const { fake, requests } = target('function:gate', () => reply);
    const { hooks, records } = hooksOf(bind('before_tool', fake));
    expect(await hooks.beforeTool(newRun(), call)).toEqual(decision);
    const context = requests[0].context;
    expect(context).toMatchObject({
      event: 'before_tool',
      run_id: 'run_1',
      session_id: 'ses_1',
      agent: 'helper',
    });
    expect(context.tool_call).toEqual({ name: 'add', arguments: { a: 1, b: 2 } });
    expect(records[0]).toMatchObject({ event: 'before_tool', target: 'function:gate', outcome: 'ok' });
  });

  it('carries the caller and its scopes, as a tool call does', async () => {
    const { fake, requests } = target('function:gate', () => undefined);
    await hooksOf(bind('before_tool', fake)).hooks.beforeTool(newRun(), call);
    expect(requests[0].caller).toMatchObject({
      principal: 'ops',
      scopes: ['chat'],
      run_id: 'run_1',
      kind: 'hook',
    });
  });

  it('a later hook sees the arguments an earlier one rewrote; a deny ends the round', async () => {
    const first = target('function:one', () => ({ decision: 'rewrite', arguments: { a: 5, b: 5 } }));
    const second = target('function:two', () => ({ decision: 'deny', reason: 'too big' }));
    const third = target('function:three', () => undefined);
    const { hooks } = hooksOf(...[first, second, third].map((t) => bind('before_tool', t.fake)));
    expect(await hooks.beforeTool(newRun(), call)).toEqual({ action: 'deny', reason: 'too big' });
    expect(second.requests[0].context.tool_call?.arguments).toEqual({ a: 5, b: 5 });
    expect(third.requests).toHaveLength(0);
  });

  it.each([
    [{ decision: 'maybe' }, "unknown decision 'maybe'"],
    [{ decision: 'rewrite' }, 'a rewrite needs `arguments`'],
    ['yes', 'must be an object'],
  ])('a reply like %j is the hook failing', async (reply, message) => {
    const { fake } = target('function:gate', () => reply);
    const { hooks, records } = hooksOf(bind('before_tool', fake, 'fail_closed'));
    const decision = await hooks.beforeTool(newRun(), call);
    expect(decision).toMatchObject({ action: 'deny' });
    expect(records[0]).toMatchObject({ outcome: 'error', policy: 'fail_closed' });
    expect(records[0].error).toContain(message);
  });
});

describe('profile hooks: policies', () => {
  it('fail_open: a hook that times out is recorded and the call goes on', async () => {
    const { fake, requests } = target('function:slow', () => undefined, true);
    const { hooks, records } = hooksOf(bind('before_tool', fake, 'fail_open', 20));
    expect(await hooks.beforeTool(newRun(), call)).toBeUndefined();
    expect(records[0]).toMatchObject({
      outcome: 'timeout',
      policy: 'fail_open',
      error: 'no answer within 20 ms',
    });
    expect(requests[0].signal.aborted).toBe(true);
  });

  it('fail_closed: a before_tool hook that fails denies the call, saying why', async () => {
    const { fake } = target('function:gate', () => {
      throw new Error('audit store down');
    });
    const { hooks } = hooksOf(bind('before_tool', fake, 'fail_closed'));
    expect(await hooks.beforeTool(newRun(), call)).toEqual({
      action: 'deny',
      reason: 'a before_tool hook failed (audit store down); the call was not made',
    });
  });

  it('fail_closed: any other hook that fails stops the run with HookFailed naming it', async () => {
    const { fake } = target('https://hooks.example.com/llm', () => undefined, true);
    const { hooks, records } = hooksOf(bind('after_llm', fake, 'fail_closed', 20));
    const result = { text: '', toolCalls: [], usage: { prompt_tokens: 3, completion_tokens: 4 } };
    const done = hooks.afterLlm(newRun(), {
      ...result,
      stopReason: 'stop',
      model: 'm',
      provider: 'p',
      elapsedMs: 12,
    });
    await expect(done).rejects.toThrow(HookFailed);
    await expect(done).rejects.toThrow('the after_llm hook https://hooks.example.com/llm failed');
    expect(records[0]).toMatchObject({ outcome: 'timeout', policy: 'fail_closed' });
  });

  it('fail_open: an observer that fails does not stop the run', async () => {
    const { fake } = target('function:audit', () => {
      throw new Error('nope');
    });
    const { hooks, records } = hooksOf(bind('on_turn_start', fake));
    await expect(hooks.onTurnStart(newRun())).resolves.toBeUndefined();
    expect(records[0]).toMatchObject({ event: 'on_turn_start', outcome: 'error', error: 'nope' });
  });
});

describe('profile hooks: contexts', () => {
  it('gives each event what concerns it, and only its own hooks are called', async () => {
    const seen: HookContext[] = [];
    const events: HookEvent[] = ['after_tool', 'on_turn_end', 'on_plan_step_complete'];
    const { hooks } = hooksOf(
      ...events.map((event) => bind(event, target(event, (r) => void seen.push(r.context)).fake)),
    );
    const run = newRun();
    await hooks.onTurnStart(run);
    await hooks.afterTool(run, {
      call,
      args: { a: 1, b: 2 },
      status: 'error',
      error: { code: 'function_error', message: 'boom' },
      executed: true,
      elapsedMs: 7,
      observation: '<error>boom</error>',
    });
    await hooks.onPlanStepComplete(run, {
      index: 2,
      description: 'add',
      tool: 'add',
      params: {},
      status: 'failed',
      error: 'boom',
    });
    await hooks.onTurnEnd(run, { finishReason: 'final', reply: '3' });
    expect(seen.map((c) => c.event)).toEqual(['after_tool', 'on_plan_step_complete', 'on_turn_end']);
    expect(seen[0].tool_result).toEqual({
      status: 'error',
      observation: '<error>boom</error>',
      error: 'boom',
      elapsed_ms: 7,
    });
    expect(seen[1]).toMatchObject({
      plan_step_index: 2,
      plan_step: { index: 2, tool: 'add', status: 'failed', error: 'boom' },
    });
    expect(seen[2]).toMatchObject({
      finish_reason: 'final',
      usage: { prompt_tokens: 0, completion_tokens: 0 },
    });
  });
});
