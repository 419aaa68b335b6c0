import { Bus } from '@app/bus';
import type { Script } from '@app/testing';
import { type ScriptedLlm, startScriptedLlm } from '@app/testing';
import { type ExecutorOptions, type ExecutorUnderTest, startExecutor } from './executor-app';
import { type NatsServer, startNatsServer } from '@app/testing';
import { type ServedFunctions, serveFunctions, type TestFunction } from './test-functions';

export interface World {
  nats: NatsServer;
  llm: ScriptedLlm;
  /** The test's own connection (the gateway's side of the bus). */
  bus: Bus;
  functions: ServedFunctions;
  executor: ExecutorUnderTest;
  script(script: Script): void;
  close(): Promise<void>;
}

/** A private broker, the scripted model, test functions and an in-process executor. */
export async function startWorld(options: {
  functions: TestFunction[];
  /** Profiles for the config file; a function gets the scripted model's URL (for per-agent endpoints). */
  agents?: ExecutorOptions['agents'] | ((llmUrl: string) => ExecutorOptions['agents']);
  env?: ExecutorOptions['env'];
  databaseUrl?: string;
  config?: ExecutorOptions['config'];
  /** The scripted model's prompt cache emulated (real token counts). */
  promptCache?: boolean;
}): Promise<World> {
  const nats = await startNatsServer();
  const llm = await startScriptedLlm({ promptCache: options.promptCache });
  const bus = await Bus.connect({ url: nats.url, name: 'test' });
  const functions = serveFunctions(bus, options.functions);
  await bus.flush();
  const agents = typeof options.agents === 'function' ? options.agents(llm.url) : options.agents;
  let executor: ExecutorUnderTest;
  try {
    executor = await startExecutor({
      natsUrl: nats.url,
      llmUrl: llm.url,
      agents,
      env: options.env,
      databaseUrl: options.databaseUrl,
      config: options.config,
    });
  } catch (err) {
    await Promise.all([bus.drain(), llm.close(), nats.stop()]);
    throw err;
  }
  return {
    nats,
    llm,
    bus,
    functions,
    executor,
    script: (script) => {
      llm.setScript(script);
      llm.clearRequests();
      functions.calls.length = 0;
    },
    close: async () => {
      await executor.close();
      await bus.drain();
      await llm.close();
      await nats.stop();
    },
  };
}

export const arithmetic: TestFunction[] = [
  {
    name: 'add',
    params: { a: { type: 'number' }, b: { type: 'number' } },
    required: ['a', 'b'],
    run: ({ a, b }) => ({ data: { sum: (a as number) + (b as number) } }),
  },
  {
    name: 'multiply',
    params: { a: { type: 'number' }, b: { type: 'number' } },
    required: ['a', 'b'],
    run: ({ a, b }) => ({ data: { product: (a as number) * (b as number) } }),
  },
];
