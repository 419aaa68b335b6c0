// The embedded side: the built SDK (dist/libs/agent) with the same `add` as an in-process
// function, the native protocol (as @openai/agents uses), no session.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type * as Sdk from '../../libs/agent/src';
import { ADD } from '../common/add-function';
import { EXPECTED_ANSWER } from '../common/openai-agents';
import { ROOT } from '../common/processes';

const { createAgent, defineFunction, openai } = createRequire(join(ROOT, 'package.json'))(
  join(ROOT, 'dist/libs/agent/src/index.js'),
) as typeof Sdk;

/** A turn of the embedded agent, checked like the other side's. */
export function embeddedTurn(llmUrl: string): (message: string) => Promise<void> {
  const add = defineFunction<{ a: number; b: number }>({
    ...ADD,
    execute: async ({ a, b }) => ({ data: { sum: a + b } }),
  });
  const agent = createAgent({
    name: 'bench',
    instructions: 'You are a helpful assistant.',
    model: openai({ baseURL: llmUrl, apiKey: 'bench', model: 'scripted-model', maxRetries: 0 }),
    functions: [add],
    protocol: 'native',
  });
  return async (message) => {
    const result = await agent.run(message);
    if (result.reply !== EXPECTED_ANSWER || result.function_calls.length !== 1)
      throw new Error(`the embedded SDK answered ${JSON.stringify(result.reply)} (${result.finish_reason})`);
  };
}
