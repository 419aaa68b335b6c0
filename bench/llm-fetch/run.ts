import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { availableParallelism, cpus, loadavg } from 'node:os';
import OpenAI from 'openai';
import { Agent, fetch as undiciFetch } from 'undici';
import { createSdkFetch } from '../../libs/llm/src/sdk-fetch';

// Run from the repo root: `node --import ./bench/protocol/ts-resolve.mjs bench/llm-fetch/run.ts`.
// The CPU one OpenAI SDK call costs the calling process with each `fetch` the SDK may be given:
// ours (undici's `request`), undici's `fetch`, and Node's built-in `fetch`. The server answers a
// fixed completion from the same process, so its share is in every figure alike; rounds alternate.
const CALLS = 1_500;
const ROUNDS = 5;

const completion = JSON.stringify({
  id: 'bench',
  object: 'chat.completion',
  created: 0,
  model: 'scripted',
  choices: [{ index: 0, message: { role: 'assistant', content: 'done '.repeat(50) }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 400, completion_tokens: 50, total_tokens: 450 },
});
const messages = [
  { role: 'system' as const, content: 'instructions '.repeat(200) },
  { role: 'user' as const, content: 'hello' },
];

async function main(): Promise<void> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end(completion));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  const dispatcher = new Agent({ keepAliveTimeout: 4_000 });
  const fetches: Record<string, typeof fetch> = {
    'ours (undici request)': createSdkFetch() as typeof fetch,
    'undici fetch': ((input: string, init?: RequestInit) =>
      undiciFetch(input, { ...(init as object), dispatcher })) as unknown as typeof fetch,
    'Node built-in fetch': fetch,
  };
  const samples: Record<string, number[]> = {};
  const load = loadavg()[0].toFixed(1);
  for (let round = 0; round < ROUNDS; round++)
    for (const [name, f] of Object.entries(fetches)) {
      const client = new OpenAI({ baseURL, apiKey: 'bench', fetch: f, maxRetries: 0 });
      const call = () => client.chat.completions.create({ model: 'scripted', messages });
      for (let i = 0; i < 100; i++) await call();
      const before = process.cpuUsage();
      for (let i = 0; i < CALLS; i++) await call();
      const used = process.cpuUsage(before);
      (samples[name] ??= []).push((used.user + used.system) / 1_000 / CALLS);
    }
  server.close();
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  console.log(
    `Measured ${new Date().toISOString().slice(0, 10)} on ${cpus()[0]?.model.trim()}, ${availableParallelism()} cores, ` +
      `Node ${process.version}, load ${load}; ${ROUNDS} alternating rounds of ${CALLS} calls.\n`,
  );
  console.log(
    '| fetch given to the SDK | CPU per call, median of rounds | rounds (min–max) |\n| --- | ---: | ---: |',
  );
  for (const [name, xs] of Object.entries(samples))
    console.log(
      `| ${name} | ${median(xs).toFixed(3)} ms | ${Math.min(...xs).toFixed(3)}–${Math.max(...xs).toFixed(3)} ms |`,
    );
  process.exit(0);
}

void main();
