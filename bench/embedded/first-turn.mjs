// CPU of an embedded process's start and of its first turns: what loading at first use moves from
// the SDK's require into the first turn. Run after `npm run build`:
//   node_modules/.bin/node bench/embedded/first-turn.mjs [--rounds 10]
// Each round is a fresh process: it requires the SDK and makes an agent (one function, the default
// xml-toon protocol, a SQLite session store), then takes two turns on the scripted model (its own
// process), each in a new session: a call of `add`, then the answer. CPU is the process's own (`process.cpuUsage`).
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const args = process.argv.slice(2);
const rounds = Number(args[args.indexOf('--rounds') + 1]) || 10;
const SCRIPT = {
  rules: [{ match: 'sum', reply: 'The sum is 5.' }],
  fallback: '<call name="add"><p>a: 2</p><p>b: 3</p></call>',
};

if (args[0] === 'turns') await turns(args[1]);
else await measure();

async function turns(llmUrl) {
  const ms = ({ user, system }) => (user + system) / 1000;
  const start = process.cpuUsage();
  const sdk = createRequire(join(root, 'package.json'))(join(root, 'dist/libs/agent/src/index.js'));
  const add = sdk.defineFunction({
    name: 'add',
    description: 'Adds two numbers.',
    parameters: {
      type: 'object',
      properties: { a: { type: 'number' }, b: { type: 'number' } },
      required: ['a', 'b'],
    },
    execute: async ({ a, b }) => ({ data: { sum: a + b } }),
  });
  const model = sdk.openai({ baseURL: llmUrl, apiKey: 'bench', model: 'scripted-model', maxRetries: 0 });
  const sessions = await sdk.sqliteSessions(join(mkdtempSync(join(tmpdir(), 'ac-first-')), 'sessions.db'));
  const agent = sdk.createAgent({
    name: 'first',
    instructions: 'Be brief.',
    model,
    functions: [add],
    sessions,
  });
  const cpu = [ms(process.cpuUsage(start))];
  for (let turn = 0; turn < 2; turn++) {
    const before = process.cpuUsage();
    const result = await agent.session().submitTurn('Add 2 and 3.');
    if (result.reply !== 'The sum is 5.' || result.function_calls.length !== 1)
      throw new Error(
        `the turn answered ${JSON.stringify(result.reply)} after ${result.function_calls.length} calls`,
      );
    cpu.push(ms(process.cpuUsage(before)));
  }
  process.send?.({ cpu });
}

async function measure() {
  const llm = spawn(
    process.execPath,
    [join(root, 'dist/libs/testing/src/scripted-llm/main.js'), '--port', '0'],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const url = await new Promise((resolve) =>
    llm.stdout.on('data', (d) => resolve(/(http:\/\/\S+\/v1)/.exec(String(d))?.[1])),
  );
  await fetch(url.replace(/\/v1$/, '/_script'), { method: 'PUT', body: JSON.stringify(SCRIPT) });
  const samples = [];
  for (let i = 0; i < rounds; i++) {
    const child = spawn(process.execPath, [fileURLToPath(import.meta.url), 'turns', url], {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    samples.push(
      await new Promise((resolve, reject) => {
        child.once('message', resolve);
        child.once('exit', (code) => reject(new Error(`a round exited with ${code}`)));
      }),
    );
    child.kill();
  }
  llm.kill();
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const col = (i) => median(samples.map((s) => s.cpu[i])).toFixed(1);
  console.log(
    `Measured ${new Date().toISOString().slice(0, 10)} on ${cpus()[0].model.trim()}, ${cpus().length} cores, Node ${process.version}; ` +
      `${rounds} processes, medians; 1-minute load average ${loadavg()[0].toFixed(1)}.\n`,
  );
  console.log('| CPU of | ms |\n| --- | ---: |');
  console.log(`| require the SDK, make the agent and its SQLite session | ${col(0)} |`);
  console.log(`| the first turn (a call of \`add\`, then the answer) | ${col(1)} |`);
  console.log(`| the second turn (a new session, the same exchange) | ${col(2)} |`);
  console.log(`| all three | ${median(samples.map((s) => s.cpu[0] + s.cpu[1] + s.cpu[2])).toFixed(1)} |`);
}
