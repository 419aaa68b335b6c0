// The comparison side of the chat benchmarks: one @openai/agents agent with the `add` function
// tool, on a Chat Completions model at `llmUrl`, tracing off.
import { Agent, OpenAIChatCompletionsModel, run, setTracingDisabled, tool } from '@openai/agents';
import OpenAI from 'openai';
import { ADD } from './add-function';

/** What every scripted turn must end with, on either side. */
export const EXPECTED_ANSWER = 'The sum is 5.';

/** A turn of the agent: its final output, checked against EXPECTED_ANSWER. */
export function openAiAgentsTurn(llmUrl: string): (message: string) => Promise<void> {
  setTracingDisabled(true);
  const client = new OpenAI({ baseURL: llmUrl, apiKey: 'bench', maxRetries: 0, timeout: 60_000 });
  const add = tool({
    ...ADD,
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
  return async (message) => {
    const output = String((await run(agent, message)).finalOutput);
    if (output !== EXPECTED_ANSWER) throw new Error(`@openai/agents answered ${JSON.stringify(output)}`);
  };
}
