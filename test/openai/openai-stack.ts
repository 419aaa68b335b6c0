import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { OpenAIChatCompletionsModel } from '@openai/agents';
import OpenAI from 'openai';
import { REPO_ROOT } from '@app/testing';
import type { CreatedApiKey, Scope } from '@app/contracts';
import { add, type ChatStack, post, startChatStack } from '../chat/chat-stack';

export const ADMIN_KEY = 'ac_openai_compat_test_admin_key_0123456789';
export const RATE_LIMIT = 100;

export interface OpenAiStack {
  stack: ChatStack;
  /** A key with the `chat` scope only. */
  chatKey: string;
  /** The real `openai` client on the gateway's `/v1`, without retries (429 must surface). */
  client(key?: string): OpenAI;
  /** A new key with `scopes` (and e.g. its own `daily_cost_budget_usd`). */
  createKey(scopes: Scope[], fields?: Record<string, unknown>): Promise<string>;
  /** Clears the scripted model's requests and sets its script. */
  script(script: Parameters<ChatStack['llm']['setScript']>[0]): void;
  close(): Promise<void>;
}

/**
 * The chat stack (gateway + executor processes, their own nats-server, SQLite, the scripted
 * model, the `add` function) with API keys on, as an OpenAI client meets it; `env` adds settings
 * (e.g. a PostgreSQL `DATABASE_URL`).
 */
export async function startOpenAiStack(
  agents: (llmUrl: string) => Record<string, unknown>[],
  env: Record<string, string> = {},
): Promise<OpenAiStack> {
  const stack = await startChatStack({
    functions: [add],
    agents,
    env: { AUTH_ENABLED: 'true', AC_ADMIN_KEY: ADMIN_KEY, RATE_LIMIT_PER_MINUTE: String(RATE_LIMIT), ...env },
  });
  const createKey = async (scopes: Scope[], fields: Record<string, unknown> = {}) => {
    const res = await post(
      stack.base,
      '/api/v1/keys',
      { name: `test-${scopes.join('-')}`, scopes, ...fields },
      {
        authorization: `Bearer ${ADMIN_KEY}`,
      },
    );
    if (res.status !== 201) throw new Error(`cannot create a key: ${res.status} ${await res.text()}`);
    return ((await res.json()) as CreatedApiKey).key;
  };
  const chatKey = await createKey(['chat']);
  return {
    stack,
    chatKey,
    client: (key = chatKey) => new OpenAI({ apiKey: key, baseURL: `${stack.base}/v1`, maxRetries: 0 }),
    createKey,
    script: (script) => {
      stack.llm.setScript(script);
      stack.llm.clearRequests();
    },
    close: () => stack.close(),
  };
}

/** `<call name="add">…`: the model asking for the platform's `add`. */
export const addCall = (a: number, b: number) => `<call name="add"><p>a: ${a}</p><p>b: ${b}</p></call>`;

type AgentsClient = ConstructorParameters<typeof OpenAIChatCompletionsModel>[0];

/** An OpenAI client on the gateway from the `openai` package the Agents SDK itself depends on. */
export function agentsClient(openai: OpenAiStack): AgentsClient {
  const load = createRequire(createRequire(join(REPO_ROOT, 'package.json')).resolve('@openai/agents-openai'));
  const { OpenAI: Client } = load('openai') as { OpenAI: new (options: object) => AgentsClient };
  return new Client({ apiKey: openai.chatKey, baseURL: `${openai.stack.base}/v1`, maxRetries: 0 });
}
