import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ScriptedLlm, startScriptedLlm } from '@app/testing';
import { createAgent } from '../create-agent';
import { defineFunction } from '../functions/define-function';
import { anthropic, openai } from './models';

const add = defineFunction<{ a: number; b: number }>({
  name: 'add',
  description: 'Adds two numbers.',
  parameters: {
    type: 'object',
    properties: { a: { type: 'number' }, b: { type: 'number' } },
    required: ['a', 'b'],
  },
  execute: ({ a, b }) => ({ data: { sum: a + b } }),
});

describe('an embedded agent on each wire format (scripted model over HTTP)', () => {
  let llm: ScriptedLlm;
  beforeAll(async () => {
    llm = await startScriptedLlm({
      script: {
        rules: [{ match: 'sum', reply: 'Five.' }],
        fallback: { toolCalls: [{ name: 'add', arguments: { a: 2, b: 3 } }] },
      },
    });
  });
  afterAll(() => llm?.close());

  const models = {
    openai: () => openai({ baseURL: llm.url, model: 'scripted-model', maxRetries: 0 }),
    anthropic: () => anthropic({ baseURL: llm.url, apiKey: 'test', model: 'scripted-model', maxRetries: 0 }),
  };

  for (const [wire, model] of Object.entries(models)) {
    it(`runs a native tool turn over the ${wire} API`, async () => {
      const agent = createAgent({ name: wire, model: model(), functions: [add], protocol: 'native' });
      const result = await agent.run(`Add 2 and 3 (${wire})`);
      expect(result).toMatchObject({
        reply: 'Five.',
        finish_reason: 'final',
        function_calls: [{ name: 'add', status: 'success', result: { data: { sum: 5 } } }],
      });
      const paths = llm
        .requests()
        .filter((r) => JSON.stringify(r.body).includes(`(${wire})`))
        .map((r) => r.path);
      expect(paths).toEqual(
        wire === 'openai'
          ? ['/v1/chat/completions', '/v1/chat/completions']
          : ['/v1/messages', '/v1/messages'],
      );
    });
  }
});
