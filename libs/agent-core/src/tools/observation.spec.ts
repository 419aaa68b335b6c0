import { describe, expect, it } from 'vitest';
import type { FunctionDefinition } from '@app/contracts';
import { decodeResult } from '@app/protocol';
import { errorObservation, pagingOf, successObservation } from './observation';

const delayList: FunctionDefinition = {
  name: 'delay_list',
  description: 'List one-off tasks.',
  parameters: {
    type: 'object',
    properties: {
      status: { type: 'string' },
      offset: { type: 'integer', minimum: 0, default: 0 },
      limit: { type: 'integer', minimum: 1, maximum: 500, default: 100 },
    },
    required: [],
  },
};

// The shape the scheduler's delay_list returns; two fields are null in every row.
const tasks = Array.from({ length: 100 }, (_, i) => ({
  name: `remind_${String(i).padStart(3, '0')}`,
  run_at: new Date(Date.UTC(2026, 11, 1, 9, i)).toISOString(),
  target: i % 3 === 0 ? 'agent' : 'send_message',
  status: i % 5 === 0 ? 'cancelled' : 'pending',
  executed_at: null,
  error: null,
}));

describe('successObservation', () => {
  it('cuts a 100-row list to whole rows that decode, and names the offset of the rest', () => {
    const text = successObservation(
      'delay_list',
      { message: '100 delay task(s)', data: tasks },
      { maxLen: 4_000, definition: delayList, args: { offset: 200 } },
    );
    expect(text.length).toBeLessThanOrEqual(4_000);
    expect(text.endsWith('\n</result>')).toBe(true);
    const decoded = decodeResult(text);
    const rows = decoded.data as typeof tasks;
    expect(rows.length).toBeGreaterThan(49);
    expect(rows.length).toBeLessThan(100);
    expect(rows).toEqual(tasks.slice(0, rows.length));
    expect(text).toContain(`[${rows.length}]{`);
    expect(decoded.note).toBe(
      `Cut to 4000 characters: ${rows.length} of 100 rows shown; for the rest call delay_list again with offset: ${200 + rows.length}.`,
    );
  });

  it('suggests narrowing the call when the function does not page', () => {
    const text = successObservation('export', { data: tasks }, { maxLen: 1_000 });
    expect(decodeResult(text).note).toMatch(/rows shown; narrow the call to see the rest\.$/);
  });

  it('leaves a result that fits untouched', () => {
    const text = successObservation('delay_list', { data: tasks.slice(0, 3) }, { maxLen: 4_000 });
    expect(decodeResult(text)).toEqual({ name: 'delay_list', status: 'success', data: tasks.slice(0, 3) });
  });
});

describe('errorObservation', () => {
  it('tells the tokens saved against compact JSON once, after the step, for a result that was cut too', async () => {
    const told: number[] = [];
    const text = successObservation(
      'delay_list',
      { data: tasks },
      { maxLen: 4_000, definition: delayList, onTokensSaved: (tokens) => told.push(tokens) },
    );
    expect(text.length).toBeLessThanOrEqual(4_000);
    expect(told).toEqual([]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(told).toHaveLength(1);
    expect(told[0]).toBeGreaterThan(0);
  });

  it('cuts a long message at a word and keeps the element closed', () => {
    const text = errorObservation('f', 'word '.repeat(200), 200);
    expect(text.length).toBeLessThanOrEqual(200);
    expect(decodeResult(text).error).toMatch(/^(word )+word…$/);
  });

  it('cuts a message without a space where it must rather than lose it', () => {
    const text = errorObservation('f', `https://example.com/${'a'.repeat(400)}`, 200);
    expect(text.length).toBeLessThanOrEqual(200);
    expect(decodeResult(text)).toMatchObject({
      error: expect.stringMatching(/^https:\/\/example\.com\/a+…$/),
      note: 'Cut to 200 characters: error message cut.',
    });
  });
});

describe('pagingOf', () => {
  it('pages only functions with an integer offset parameter', () => {
    expect(pagingOf(delayList, {})).toEqual({ offsetParam: 'offset', offset: 0 });
    expect(pagingOf(delayList, { offset: 40 })).toEqual({ offsetParam: 'offset', offset: 40 });
    expect(pagingOf({ ...delayList, parameters: { type: 'object', properties: {}, required: [] } }, {})).toBe(
      undefined,
    );
  });
});
