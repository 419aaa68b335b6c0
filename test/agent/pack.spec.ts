import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  installPacked,
  nodeBinary,
  packPackage,
  REPO_ROOT,
  type ScriptedLlm,
  startScriptedLlm,
  typeCheckConsumer,
} from '@app/testing';

const exec = promisify(execFile);
const PACKAGE_DIR = join(REPO_ROOT, 'libs/agent');

const SCRIPT = {
  rules: [
    {
      match: '/Tromso[\\s\\S]*temperature_c|temperature_c[\\s\\S]*Tromso/',
      reply: '{"type":"final","answer":"It is 4 °C in Tromso."}',
    },
    { match: 'temperature_c', reply: 'It is 4 °C and cloudy.' },
    { match: 'Tromso', reply: '{"type":"action","tool":"get_weather","args":{"city":"Tromso"}}' },
    { match: 'Bergen', reply: { toolCalls: [{ name: 'get_weather', arguments: { city: 'Bergen' } }] } },
    { match: '/weather/i', reply: '<call name="get_weather"><p>city: Oslo</p></call>' },
  ],
  fallback: 'You asked about Oslo.',
};

// Plain JavaScript, as an application without a build step writes it.
const CONSUMER = `
import { createAgent, defineFunction, openai, sqliteMemory, sqliteSessions } from '@agentchassis/agent';

const looked = [];
const getWeather = defineFunction({
  name: 'get_weather',
  description: 'Current weather of a city.',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  execute: async ({ city }) => { looked.push(city); return { data: { city, temperature_c: 4, sky: 'cloudy' } }; },
});
const model = openai({ baseURL: process.env.LLM_BASE_URL, model: 'scripted-model', maxRetries: 0 });
const agent = createAgent({ name: 'weather', instructions: 'Answer briefly.', model, functions: [getWeather] });

const session = agent.session();
const first = await session.submitTurn('What is the weather in Oslo?');
const second = await session.submitTurn('Which city was that?');
const native = createAgent({ name: 'native', model, functions: [getWeather], protocol: 'native' });
const events = [];
const stream = native.send('And Bergen?');
for await (const event of stream) events.push(event.type);
const streamed = await stream.result;
const json = await createAgent({ name: 'json', model, functions: [getWeather], protocol: 'json-action' }).run('Weather in Tromso?');
// better-sqlite3 is an optional peer, not installed here: only SQLite sessions need it.
const sqlite = await sqliteSessions('sessions.db').then(() => 'opened', (err) => err.message);
const sqliteMem = await sqliteMemory('memory.db').then(() => 'opened', (err) => err.message);
// Memory in the process by default: the run is archived behind its result.
const remembering = createAgent({ name: 'concierge', model, memory: { scope: { principal: 'ana' } } });
await remembering.run('Remember the blue umbrella');
await remembering.memory.settled();
const remembered = (await remembering.memory.store.search({ principal: 'ana' }, ['umbrella'], 5)).map((c) => c.content);
console.log(JSON.stringify({ first, second: second.reply, turns: session.turnIndex, events, streamed: streamed.reply, json: json.reply, looked, sqlite, sqliteMem, remembered }));
`;

// Type-checked against the packed declarations alone, with the platform's @Param decorators.
const TYPED_CONSUMER = `
import {
  createAgent,
  InMemoryMemoryStore,
  openai,
  Param,
  type AgentFunction,
  type AgentResult,
  type MemoryStore,
  type RunEvent,
} from '@agentchassis/agent';

class WeatherParams {
  @Param({ description: 'city name', required: true }) city!: string;
}
const getWeather: AgentFunction<WeatherParams> = {
  name: 'get_weather',
  description: 'Current weather of a city.',
  params: WeatherParams,
  execute: async ({ city }) => ({ data: { city, sky: 'cloudy' } }),
};
const agent = createAgent({
  name: 'weather',
  model: openai({ baseURL: 'http://127.0.0.1:4010/v1', model: 'scripted-model' }),
  functions: [getWeather as AgentFunction],
  protocol: 'json-action',
  limits: { maxSteps: 4, callTimeoutMs: 5_000 },
});
const store: MemoryStore = new InMemoryMemoryStore();
export const remembering = createAgent({
  name: 'concierge',
  model: openai({ baseURL: 'http://127.0.0.1:4010/v1', model: 'scripted-model' }),
  memory: { store, scope: { principal: 'ana', agent: 'concierge' } },
});
export async function turn(): Promise<string[]> {
  const result: AgentResult = await agent.session('ses_1').submitTurn('hi');
  const names: string[] = [result.finish_reason, String(result.trace.length)];
  for await (const event of agent.send('hi') as AsyncIterable<RunEvent>) names.push(event.type);
  return names;
}
`;

/** The oldest Node.js the package's engines take (`>=x.y.z`). */
const OLDEST_NODE = (
  JSON.parse(readFileSync(join(PACKAGE_DIR, 'package.json'), 'utf8')) as { engines: { node: string } }
).engines.node.replace(/^>=/, '');
/** A Node.js older than that one: the machine's own (Node 20 here). */
const OLDER_NODE = '/usr/bin/node';

describe('the packed @agentchassis/agent installed in a project outside the monorepo', () => {
  let llm: ScriptedLlm;
  let app: string | undefined;
  const project = mkdtempSync(join(tmpdir(), 'ac-agent-consumer-'));

  beforeAll(async () => {
    llm = await startScriptedLlm({ script: SCRIPT });
  });
  afterAll(() => llm?.close());

  it('installs from the tarball and its dependencies alone, type-checks, and runs agents of all three protocols in process', async () => {
    const packed = await packPackage(PACKAGE_DIR, project);
    expect(packed.files).toEqual(
      expect.arrayContaining([
        'package.json',
        'dist/agent/src/index.js',
        'dist/agent/src/index.d.ts',
        'dist/agent-core/src/agent.js',
        'dist/llm/src/openai.provider.js',
        'dist/protocol/src/xml-toon.codec.js',
        'dist/functions/src/params/parse-params.js',
        'dist/contracts/src/errors.js',
      ]),
    );
    expect(packed.files.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))).toEqual([]);
    expect(packed.files.filter((f) => /\/(bus|persistence|observability|runtime)\//.test(f))).toEqual([]);
    expect(existsSync(join(PACKAGE_DIR, 'dist'))).toBe(false);

    // Offline: the tarball needs nothing but the npm packages it declares.
    app = await installPacked(PACKAGE_DIR, packed.tarball, project);
    for (const platformOnly of ['@nestjs/common', '@nats-io/transport-node', '@prisma/client', 'ioredis'])
      expect(existsSync(join(app, 'node_modules', platformOnly))).toBe(false);
    await typeCheckConsumer(app, TYPED_CONSUMER, { experimentalDecorators: true, types: [] });

    writeFileSync(join(app, 'consumer.mjs'), CONSUMER);
    const result = await consume(process.execPath);
    expect(result).toMatchObject({
      first: {
        reply: 'It is 4 °C and cloudy.',
        finish_reason: 'final',
        function_calls: [{ name: 'get_weather', status: 'success' }],
      },
      second: 'You asked about Oslo.',
      turns: 2,
      streamed: 'It is 4 °C and cloudy.',
      json: 'It is 4 °C in Tromso.',
      looked: ['Oslo', 'Bergen', 'Tromso'],
      sqlite: expect.stringMatching(/^SQLite sessions need the better-sqlite3 package/),
      sqliteMem: expect.stringMatching(/^SQLite memory stores need the better-sqlite3 package/),
      remembered: ['Remember the blue umbrella'],
    });
    expect(result.events).toEqual(
      expect.arrayContaining(['run_start', 'tool_call', 'tool_result', 'run_end']),
    );
    const sent = llm.requests().map((r) => JSON.stringify(r.body));
    expect(
      sent.some((body) => body.includes('What is the weather in Oslo?') && body.includes('Which city')),
    ).toBe(true);
  }, 180_000);

  async function consume(node: string): Promise<Record<string, unknown>> {
    const run = await exec(node, ['consumer.mjs'], {
      cwd: app,
      env: { PATH: process.env.PATH ?? '', LLM_BASE_URL: llm.url },
    });
    return JSON.parse(run.stdout) as Record<string, unknown>;
  }

  it('runs on the oldest Node.js its engines declare', async (ctx) => {
    expect(app, 'installed by the test above').toBeDefined();
    const node = await nodeBinary(OLDEST_NODE);
    if ('missing' in node) return ctx.skip(node.missing);
    expect(await consume(node.path)).toMatchObject({ turns: 2, second: 'You asked about Oslo.' });
  });

  it('says in one line which Node.js it needs when imported on an older one', async () => {
    expect(app, 'installed by the test above').toBeDefined();
    const version = await exec(OLDER_NODE, ['--version']).then((r) => r.stdout.trim().replace(/^v/, ''));
    expect(version.localeCompare(OLDEST_NODE, undefined, { numeric: true })).toBeLessThan(0);
    const run = await exec(OLDER_NODE, ['--input-type=module', '-e', "await import('@agentchassis/agent')"], {
      cwd: app,
    }).then(
      () => ({ code: 0, stderr: '' }),
      (err: { code: number; stderr: string }) => err,
    );
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      `Error: @agentchassis/agent needs Node.js >= ${OLDEST_NODE}; this is Node.js ${version} (upgrade Node to use it)`,
    );
    expect(run.stderr).not.toMatch(/undici|    at /);
  });
});
