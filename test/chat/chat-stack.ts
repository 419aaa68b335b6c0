import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { Bus } from '@app/bus';
import {
  gatewayUrl,
  migratedSqliteUrl,
  type ScriptedLlm,
  type ServiceProcess,
  startScriptedLlm,
  startService,
} from '@app/testing';
import { type NatsServer, startNatsServer } from '@app/testing';
import {
  type ServedFunctions,
  serveFunctions,
  type TestFunction,
} from '../../apps/agent-executor/src/testing/test-functions';

export interface ChatStack {
  base: string;
  /** The environment the stack's services run with (to start more of them). */
  env: Record<string, string>;
  llm: ScriptedLlm;
  functions: ServedFunctions;
  gateway: ServiceProcess;
  executor: ServiceProcess;
  close(): Promise<void>;
}

/**
 * The gateway and an executor as built processes, on a broker of their own (so no other test's
 * executor answers their `agent.run`), with the scripted model and functions served by the test.
 */
export async function startChatStack(options: {
  functions: TestFunction[];
  agents: (llmUrl: string) => Record<string, unknown>[];
  env?: Record<string, string>;
  /** More sections of the configuration file (e.g. `pricing`). */
  config?: Record<string, unknown>;
  /**
   * The broker runs JetStream unless false: an agent's calls carry idempotency keys, and the
   * platform's providers (runner, scheduler, agents) refuse a keyed call they cannot record.
   */
  jetstream?: boolean;
}): Promise<ChatStack> {
  const nats: NatsServer = await startNatsServer({ jetstream: options.jetstream ?? true });
  const llm = await startScriptedLlm();
  const bus = await Bus.connect({ url: nats.url, name: 'chat-test' });
  const functions = serveFunctions(bus, options.functions);
  await bus.flush();
  const configFile = join(mkdtempSync(join(tmpdir(), 'ac-chat-')), 'agentchassis.yaml');
  writeFileSync(configFile, stringify({ ...options.config, agents: options.agents(llm.url) }));
  const env = {
    AC_CONFIG: configFile,
    NATS_URL: nats.url,
    DATABASE_URL: await migratedSqliteUrl(),
    PORT: '0',
    LLM_PROVIDER: 'openai-compatible',
    LLM_BASE_URL: llm.url,
    LLM_MODEL: 'scripted-model',
    LLM_MAX_RETRIES: '0',
    // API keys are another suite's subject; these measure and test the chat path itself.
    AUTH_ENABLED: 'false',
    ...options.env,
  };
  const started = await Promise.allSettled([
    startService('gateway', env),
    startService('agent-executor', env),
  ]);
  const failed = started.find((result) => result.status === 'rejected');
  if (failed) {
    await Promise.all(
      started.map((result) => (result.status === 'fulfilled' ? result.value.stop() : undefined)),
    );
    await Promise.all([bus.drain(), llm.close(), nats.stop()]);
    throw failed.reason;
  }
  const [gateway, executor] = started.map(
    (result) => (result as PromiseFulfilledResult<ServiceProcess>).value,
  );
  return {
    base: gatewayUrl(gateway),
    env,
    llm,
    functions,
    gateway,
    executor,
    close: async () => {
      await Promise.all([gateway.stop(), executor.stop()]);
      await bus.drain();
      await llm.close();
      await nats.stop();
    },
  };
}

export interface SseEvent {
  event: string;
  id?: string;
  data: unknown;
}

/** Reads a `text/event-stream` response to its end; `onEvent` sees each event as it arrives. */
export async function readEvents(res: Response, onEvent?: (event: SseEvent) => void): Promise<SseEvent[]> {
  const events: SseEvent[] = [];
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true });
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const event = parseBlock(block);
      if (!event) continue;
      events.push(event);
      onEvent?.(event);
    }
  }
  return events;
}

function parseBlock(block: string): SseEvent | undefined {
  const fields = Object.fromEntries(
    block
      .split('\n')
      .filter((line) => line && !line.startsWith(':'))
      .map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 1).trim()]),
  );
  if (!fields.event) return undefined;
  return { event: fields.event, id: fields.id, data: JSON.parse(fields.data ?? 'null') };
}

export function post(
  base: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Response> {
  return fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

/** `add(a, b)`: the function most chat tests let the model call. */
export const add = {
  name: 'add',
  params: { a: { type: 'number' as const }, b: { type: 'number' as const } },
  required: ['a', 'b'],
  run: ({ a, b }: Record<string, unknown>) => ({ data: { sum: (a as number) + (b as number) } }),
};
