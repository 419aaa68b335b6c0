// The same chat turn through @openai/agents, in-process, against the same scripted model.
import { Agent, OpenAIChatCompletionsModel, run, setTracingDisabled, tool } from '@openai/agents';
import OpenAI from 'openai';

export function sdkTurn(llmUrl: string): (message: string) => Promise<string> {
  setTracingDisabled(true);
  const client = new OpenAI({ baseURL: llmUrl, apiKey: 'bench', maxRetries: 0, timeout: 60_000 });
  const add = tool({
    name: 'add',
    description: 'Adds two numbers.',
    parameters: {
      type: 'object',
      properties: { a: { type: 'number' }, b: { type: 'number' } },
      required: ['a', 'b'],
      additionalProperties: false,
    },
    strict: true,
    execute: async (input) => {
      const { a, b } = input as { a: number; b: number };
      return JSON.stringify({ sum: a + b });
    },
  });
  const agent = new Agent({
    name: 'bench',
    instructions: 'You are a helpful assistant.',
    tools: [add],
    // @openai/agents bundles its own copy of the openai types.
    model: new OpenAIChatCompletionsModel(client as never, 'scripted-model'),
  });
  return async (message) => String((await run(agent, message)).finalOutput);
}
