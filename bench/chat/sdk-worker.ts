// The worker thread of sdk.ts: one @openai/agents agent with an `add` function tool.
import { Agent, OpenAIChatCompletionsModel, run, setTracingDisabled, tool } from '@openai/agents';
import OpenAI from 'openai';
import { parentPort, workerData } from 'node:worker_threads';
import { ADD } from './add-function';

const EXPECTED = 'The sum is 5.';

setTracingDisabled(true);
const client = new OpenAI({ baseURL: workerData.llmUrl, apiKey: 'bench', maxRetries: 0, timeout: 60_000 });
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

parentPort?.on('message', async ({ id, message }: { id: number; message: string }) => {
  const started = performance.now();
  try {
    const output = String((await run(agent, message)).finalOutput);
    const ms = performance.now() - started;
    if (output !== EXPECTED) throw new Error(`the SDK answered ${JSON.stringify(output)}`);
    parentPort?.postMessage({ id, result: { ms } });
  } catch (err) {
    parentPort?.postMessage({ id, error: String(err) });
  }
});
