import { describe, expect, it } from 'vitest';
import { manyFunctions } from '../../../bench/protocol/large-toolset';
import { describeFunction, describeFunctions, FUNCTION_DESCRIBE } from './function-catalog';
import { countTokens } from './tokens';
import type { PromptFunction } from './types';

const sendMessage: PromptFunction = {
  name: 'send_message',
  description: 'Send a message\nto someone.',
  parameters: {
    type: 'object',
    properties: {
      to: { type: 'string' },
      text: { type: 'string', description: 'What to say' },
      channel: { type: 'string', enum: ['console', 'webhook'], default: 'console' },
      retries: { type: 'integer', minimum: 0 },
      attachments: {
        type: 'array',
        items: {
          type: 'object',
          properties: { url: { type: 'string' }, size: { type: 'integer', maximum: 1000 } },
          required: ['url'],
        },
      },
      levels: { type: 'array', items: { type: 'string', enum: ['a', 'b'] } },
      meta: { type: 'object' },
    },
    required: ['to', 'text'],
  },
};

describe('describeFunction', () => {
  it('writes a signature that keeps every constraint, nested shapes included', () => {
    expect(describeFunction(sendMessage)).toBe(
      'send_message(to: string, text: string (What to say), channel?: console|webhook =console, retries?: integer >=0, ' +
        'attachments?: {url: string, size?: integer <=1000}[], levels?: (a|b)[], meta?: object): ' +
        'Send a message to someone.',
    );
  });
});

describe('describeFunction', () => {
  it('writes a value bare only when it is a plain word that reads as nothing else', () => {
    const pick: PromptFunction = {
      name: 'pick',
      description: 'Pick one.',
      parameters: {
        type: 'object',
        properties: {
          choice: {
            type: 'string',
            enum: ['snake_case', 'kebab-case', '2026', '', 'true', 'string', 'a b', 'v1.2'],
          },
          count: { type: 'integer', enum: [1, 2], default: 1 },
          label: { type: 'string', default: '' },
        },
      },
    };
    expect(describeFunction(pick)).toBe(
      'pick(choice?: snake_case|kebab-case|"2026"|""|"true"|"string"|"a b"|"v1.2", count?: 1|2 =1, label?: string =""): Pick one.',
    );
  });
});

describe('describeFunctions', () => {
  it('gives full signatures while they fit the budget', () => {
    const text = describeFunctions([sendMessage], { budget: 3_000 });
    expect(text).toBe(`## Functions\n${describeFunction(sendMessage)}`);
    expect(text).not.toContain(FUNCTION_DESCRIBE);
  });

  it('over the budget, lists one line per function and offers function_describe', () => {
    const functions = manyFunctions(40);
    const text = describeFunctions(functions, { budget: 600 });
    expect(countTokens(text)).toBeLessThanOrEqual(600);
    const lines = text.split('\n');
    expect(lines[1]).toBe(`${FUNCTION_DESCRIBE}(name: string): Full signature of a function`);
    expect(lines.slice(2).map((line) => line.split(':')[0])).toEqual(functions.map((fn) => fn.name));
    expect(text).not.toContain('limit');
  });

  it('fits a catalog seen before to each budget it is asked for again', () => {
    const functions = manyFunctions(40);
    const roomy = describeFunctions(functions, { budget: 100_000 });
    const tight = describeFunctions(functions, { budget: 600 });
    expect(roomy).toBe(['## Functions', ...functions.map(describeFunction)].join('\n'));
    expect(tight).toContain(FUNCTION_DESCRIBE);
    expect(describeFunctions(functions, { budget: 100_000 })).toBe(roomy);
    expect(describeFunctions(functions, { budget: 600 })).toBe(tight);
    expect(describeFunctions(functions.slice(1), { budget: 100_000 })).not.toContain(functions[0].name + '(');
  });

  it('keeps every name of 1,000 functions within 5,000 tokens at the default budget', () => {
    const functions = manyFunctions(1_000);
    expect(new Set(functions.map((fn) => fn.name)).size).toBe(1_000);
    const text = describeFunctions(functions, { budget: 3_000 });
    expect(countTokens(text)).toBeLessThanOrEqual(5_000);
    const named = text
      .split('\n')
      .slice(2)
      .flatMap((line) => {
        const group = /^(\w+_)\{(.*)\}$/.exec(line);
        return group ? group[2].split(',').map((rest) => group[1] + rest) : [line];
      });
    expect(named.sort()).toEqual(functions.map((fn) => fn.name).sort());
  });
});
