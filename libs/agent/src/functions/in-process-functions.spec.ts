import { describe, expect, it } from 'vitest';
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

describe('InProcessFunctions', () => {
  const functions = new InProcessFunctions([add, wait, greet, fail]);

  it('describes @Param and JSON-Schema functions alike', () => {
    expect(functions.definitions().map((d) => [d.name, d.parameters.required])).toEqual([
      ['add', ['a']],
      ['wait', []],
      ['greet', ['name']],
      ['fail', []],
    ]);
  });

  it('validates, fills defaults and normalises the result', async () => {
    expect(await functions.call('add', { a: 2 })).toMatchObject({
      status: 'success',
      result: { data: { sum: 3 } },
    });
    expect(await functions.call('greet', { name: 'Ada' })).toMatchObject({
      status: 'success',
      result: { message: 'Hello, Ada.' },
    });
  });

  it('answers every failure as an error reply the model can read', async () => {
    const invalid = await functions.call('add', { a: 'two', c: 1 });
    expect(invalid).toMatchObject({ status: 'error', error: { code: 'invalid_params' } });
    const fields = invalid.status === 'error' ? (invalid.error.details as { field: string }[]) : [];
    expect(fields.map((f) => f.field).sort()).toEqual(['a', 'c']);
    expect(await functions.call('fail', {})).toMatchObject({
      status: 'error',
      error: { code: 'function_error', message: 'the disk is full' },
    });
    expect(await functions.call('nope', {})).toMatchObject({ status: 'error', error: { code: 'not_found' } });
  });

  it('aborts a call at its time limit, and when the caller aborts', async () => {
    expect(await functions.call('wait', {})).toMatchObject({
      status: 'error',
      error: { code: 'timeout', message: "function 'wait' did not finish within 20 ms" },
    });
    const controller = new AbortController();
    const call = functions.call('wait', {}, { signal: controller.signal, timeoutMs: 60_000 });
    controller.abort();
    expect(await call).toMatchObject({ status: 'error', error: { code: 'cancelled' } });
  });

  it('refuses two functions with one name', () => {
    expect(() => new InProcessFunctions([add, add])).toThrow(/'add' is given twice/);
  });
});
