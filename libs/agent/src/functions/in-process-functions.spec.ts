import { describe, expect, it } from 'vitest';
import type { FunctionCallRequest } from '@app/agent-core';
import { Param } from '@app/functions';
import { defineFunction } from './define-function';
import { InProcessFunctions } from './in-process-functions';

class AddParams {
  @Param({ description: 'first', required: true }) a!: number;
  @Param({ description: 'second', type: 'integer', default: 1 }) b?: number;
}

const add = {
  name: 'add',
  description: 'Adds two numbers.',
  params: AddParams,
  execute: async ({ a, b }: AddParams) => ({ data: { sum: a + (b ?? 0) } }),
};

const wait = defineFunction({
  name: 'wait',
  description: 'Waits until aborted.',
  parameters: { type: 'object', properties: {}, required: [] },
  timeoutMs: 20,
  execute: (_params, ctx) =>
    new Promise((_resolve, reject) => ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason))),
});

const greet = defineFunction<{ name: string }>({
  name: 'greet',
  description: 'Greets someone.',
  parameters: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
  execute: ({ name }) => `Hello, ${name}.`,
});

const fail = defineFunction({
  name: 'fail',
  description: 'Always fails.',
  parameters: { type: 'object', properties: {}, required: [] },
  execute: () => {
    throw new Error('the disk is full');
  },
});

function request(name: string, args: Record<string, unknown>, more: Partial<FunctionCallRequest> = {}) {
  return {
    name,
    args,
    callId: 'call_1',
    signal: new AbortController().signal,
    timeoutMs: 60_000,
    caller: { agent: 'test', run_id: 'run_1', session_id: '', kind: 'agent' as const },
    ...more,
  };
}

describe('InProcessFunctions', () => {
  const functions = new InProcessFunctions([add, wait, greet, fail]);
  const call = (name: string, args: Record<string, unknown>, more?: Partial<FunctionCallRequest>) =>
    functions.call(request(name, args, more));

  it('describes @Param and JSON-Schema functions alike, in name order', async () => {
    expect((await functions.catalogue()).map((d) => [d.name, d.parameters.required])).toEqual([
      ['add', ['a']],
      ['fail', []],
      ['greet', ['name']],
      ['wait', []],
    ]);
    expect(await functions.find('wait')).toMatchObject({ timeout_ms: 20, provider: 'embedded' });
  });

  it('validates, fills defaults and normalises the result', async () => {
    expect(await call('add', { a: 2 })).toMatchObject({
      status: 'success',
      result: { data: { sum: 3 } },
    });
    expect(await call('greet', { name: 'Ada' })).toMatchObject({
      status: 'success',
      result: { message: 'Hello, Ada.' },
    });
  });

  it('answers every failure as an error reply the model can read', async () => {
    const invalid = await call('add', { a: 'two', c: 1 });
    expect(invalid).toMatchObject({ status: 'error', error: { code: 'invalid_params' } });
    const fields = invalid.status === 'error' ? (invalid.error.details as { field: string }[]) : [];
    expect(fields.map((f) => f.field).sort()).toEqual(['a', 'c']);
    expect(await call('fail', {})).toMatchObject({
      status: 'error',
      error: { code: 'function_error', message: 'the disk is full' },
    });
    expect(await call('nope', {})).toMatchObject({ status: 'error', error: { code: 'not_found' } });
    expect(await call('add', { a: 1 }, { allowedTools: ['greet'] })).toMatchObject({
      status: 'error',
      error: { code: 'forbidden' },
    });
  });

  it('aborts a call at its time limit, and when the caller aborts', async () => {
    expect(await call('wait', {})).toMatchObject({
      status: 'error',
      error: { code: 'timeout', message: "function 'wait' did not finish within 20 ms" },
    });
    const controller = new AbortController();
    const pending = call('wait', {}, { signal: controller.signal });
    controller.abort();
    expect(await pending).toMatchObject({ status: 'error', error: { code: 'cancelled' } });
    expect(await call('wait', {}, { timeoutMs: 5 })).toMatchObject({
      error: { code: 'timeout', message: "function 'wait' did not finish within 5 ms" },
    });
  });

  it('refuses two functions with one name', () => {
    expect(() => new InProcessFunctions([add, add])).toThrow(/'add' is given twice/);
  });
});
