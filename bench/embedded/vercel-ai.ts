// The Vercel AI SDK's side: `generateText` with the same `add` as a tool and a tool loop (it calls
// the tool and asks the model again until it answers), on the OpenAI-compatible provider, from
// bench/peers (installed there by the bench, not by the root npm ci).
import { ensurePeers } from '../peers/install';
import { ADD } from '../common/add-function';
import { EXPECTED_ANSWER } from '../common/openai-agents';

/** A turn of `generateText` with a tool loop of at most 5 steps, checked like the other sides'. */
export function vercelAiTurn(llmUrl: string): (message: string) => Promise<void> {
  const peers = ensurePeers();
  // typed here by what is used: the root does not install the peers (nor their types)
  const { generateText, jsonSchema, stepCountIs, tool } = peers('ai') as AiSdk;
  const { createOpenAICompatible } = peers('@ai-sdk/openai-compatible') as {
    createOpenAICompatible(settings: { name: string; baseURL: string; apiKey: string }): {
      chatModel(id: string): unknown;
    };
  };
  const model = createOpenAICompatible({ name: 'scripted', baseURL: llmUrl, apiKey: 'bench' }).chatModel(
    'scripted-model',
  );
  const tools = {
    add: tool({
      description: ADD.description,
      inputSchema: jsonSchema(ADD.parameters),
      execute: async ({ a, b }: { a: number; b: number }) => ({ sum: a + b }),
    }),
  };
  return async (message) => {
    const result = await generateText({
      model,
      system: 'You are a helpful assistant.',
      prompt: message,
      tools,
      stopWhen: stepCountIs(5),
      maxRetries: 0,
    });
    if (result.text !== EXPECTED_ANSWER)
      throw new Error(`the Vercel AI SDK answered ${JSON.stringify(result.text)}`);
  };
}

interface AiSdk {
  generateText(options: {
    model: unknown;
    system: string;
    prompt: string;
    tools: Record<string, unknown>;
    stopWhen: unknown;
    maxRetries: number;
  }): Promise<{ text: string }>;
  jsonSchema(schema: object): unknown;
  stepCountIs(count: number): unknown;
  tool<I>(spec: {
    description: string;
    inputSchema: unknown;
    execute: (input: I) => Promise<unknown>;
  }): unknown;
}
