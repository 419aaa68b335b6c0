// The deployed peer of bench/chat: a Mastra server as `mastra build` makes it, with LibSQL storage
// and memory (each turn loads its thread and saves it), one tool, on the benchmark's scripted model
// (SCRIPTED_LLM_URL). Its own dependencies: bench/peers/package.json.
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { Agent } from '@mastra/core/agent';
import { Mastra } from '@mastra/core/mastra';
import { createTool } from '@mastra/core/tools';
import { LibSQLStore } from '@mastra/libsql';
import { Memory } from '@mastra/memory';
import { z } from 'zod';

const model = createOpenAICompatible({
  name: 'scripted',
  baseURL: process.env.SCRIPTED_LLM_URL ?? 'http://127.0.0.1:4010/v1',
  apiKey: 'bench',
}).chatModel('scripted-model');

const add = createTool({
  id: 'add',
  description: 'Adds two numbers.',
  inputSchema: z.object({ a: z.number(), b: z.number() }),
  execute: async ({ a, b }) => ({ sum: a + b }),
});

const storage = new LibSQLStore({ id: 'bench', url: process.env.MASTRA_DB_URL ?? 'file:./mastra-bench.db' });

export const mastra = new Mastra({
  agents: {
    bench: new Agent({
      id: 'bench',
      name: 'bench',
      instructions: 'You are a helpful assistant.',
      model,
      tools: { add },
      memory: new Memory({ storage, options: { lastMessages: 20 } }),
    }),
  },
  storage,
});
