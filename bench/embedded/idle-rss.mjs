// Idle RSS of a process holding the embedded SDK: one agent, one function, a SQLite session store
// (budget ≤ 50 MB in docs/benchmarks.md), and what each piece adds. Run after `npm run build`:
//   node_modules/.bin/node [node flags] bench/embedded/idle-rss.mjs [--idle-seconds 10]
// Each stage runs in a fresh process that loads the pieces before it, settles and sleeps; the
// parent reads its RSS from /proc/<pid>/status. Prints a Markdown table.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const args = process.argv.slice(2);
const idleSeconds = Number(args[args.indexOf('--idle-seconds') + 1]) || 10;

const STAGES = [
  ['node alone', 0],
  ['the SDK loaded (`@agentchassis/agent`)', 1],
  ['an agent with one function and a model', 2],
  ['a SQLite session store, a session opened', 3],
  ['the tokenizer loaded (what a first turn\'s token counts load)', 4],
];

if (args[0] === 'stage') await stage(Number(args[1]));
else await measure();

async function stage(level) {
  const hold = [];
  if (level >= 1) {
    const sdk = createRequire(join(root, 'package.json'))(join(root, 'dist/libs/agent/src/index.js'));
    hold.push(sdk);
    if (level >= 2) {
      const add = sdk.defineFunction({
        name: 'add',
        description: 'Adds two numbers.',
        parameters: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] },
        execute: async ({ a, b }) => ({ data: { sum: a + b } }),
      });
      const model = sdk.openai({ baseURL: 'http://127.0.0.1:9/v1', model: 'gpt-5.4-mini' });
      const sessions = level >= 3 ? await sdk.sqliteSessions(join(mkdtempSync(join(tmpdir(), 'ac-idle-')), 'sessions.db')) : undefined;
      const agent = sdk.createAgent({ name: 'idle', instructions: 'Be brief.', model, functions: [add], sessions });
      hold.push(agent, level >= 3 ? agent.session('ses_idle') : undefined);
      // a turn's prompt counts tokens: what the first real turn loads
      if (level >= 4) hold.push(sdk.countTokens?.('warm the tokenizer') ?? (await import('gpt-tokenizer')).encode('warm').length);
    }
  }
  globalThis.gc?.();
  process.send?.('ready');
  setInterval(() => hold.length, 60_000);
}

async function measure() {
  const rows = [];
  for (const [label, level] of STAGES) {
    // The parent's Node flags go on to each stage (`node --no-maglev --no-turbofan bench/…` measures without the JIT tiers).
    const child = spawn(process.execPath, [...process.execArgv, '--expose-gc', fileURLToPath(import.meta.url), 'stage', String(level)], {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    await new Promise((resolve, reject) => {
      child.once('message', resolve);
      child.once('exit', (code) => reject(new Error(`stage ${level} exited with ${code}`)));
    });
    await new Promise((resolve) => setTimeout(resolve, idleSeconds * 1000));
    const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))[1]);
    rows.push({ label, mb: kb / 1024 });
    child.kill();
  }
  console.log(
    `Measured ${new Date().toISOString().slice(0, 10)} on ${cpus()[0].model.trim()}, ${cpus().length} cores, Node ${process.version}; ` +
      `${idleSeconds} s idle after loading${process.execArgv.length ? ` (${process.execArgv.join(' ')})` : ''}; 1-minute load average ${loadavg()[0].toFixed(1)}.\n`,
  );
  console.log('| the process holds | RSS | added |');
  console.log('| --- | ---: | ---: |');
  rows.forEach((row, i) =>
    console.log(`| ${row.label} | ${row.mb.toFixed(1)} MB | ${i === 0 ? '' : `+${(row.mb - rows[i - 1].mb).toFixed(1)} MB`} |`),
  );
}
