// The deployed peer: a Mastra server as `mastra build` makes it (bench/peers/src/mastra: LibSQL
// storage and memory, the `add` tool), on the benchmark's scripted model, in its own process and
// reached over HTTP as the platform's gateway is. Built on first use, from bench/peers.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { processCpuMs, processRssBytes, type Stoppable, startProcess } from '../common/processes';
import { ensurePeers, PEERS_DIR } from '../peers/install';

const SOURCE = join(PEERS_DIR, 'src/mastra/index.ts');
const SERVER = join(PEERS_DIR, '.mastra/output/index.mjs');

export interface MastraPeer {
  /** One turn on a thread of its own (`thread` given: that thread, which memory then loads). */
  turn(message: string, thread: string): Promise<void>;
  cpuMs(): number;
  rssBytes(): number;
}

export async function startMastra(llmUrl: string, started: Stoppable[]): Promise<MastraPeer> {
  ensurePeers();
  if (!existsSync(SERVER) || statSync(SERVER).mtimeMs < statSync(SOURCE).mtimeMs) {
    process.stderr.write('building the Mastra peer (mastra build)…\n');
    execFileSync('npx', ['mastra', 'build'], {
      cwd: PEERS_DIR,
      stdio: 'inherit',
      env: { ...process.env, MASTRA_TELEMETRY_DISABLED: '1' },
    });
  }
  const port = 40_000 + Math.floor(Math.random() * 10_000);
  const db = join(mkdtempSync(join(tmpdir(), 'ac-mastra-')), 'mastra.db');
  const proc = await startProcess(
    'mastra',
    [SERVER],
    {
      PORT: String(port),
      SCRIPTED_LLM_URL: llmUrl,
      MASTRA_DB_URL: `file:${db}`,
      MASTRA_TELEMETRY_DISABLED: '1',
    },
    /Mastra API running/,
    started,
  );
  const url = `http://127.0.0.1:${port}/api/agents/bench/generate`;
  return {
    turn: async (message, thread) => {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          messages: [{ role: 'user', content: message }],
          memory: { thread, resource: 'bench' },
        }),
      });
      const body = (await res.json()) as { text?: string; toolResults?: unknown[] };
      if (res.status !== 200 || body.text !== 'The sum is 5.' || body.toolResults?.length !== 1)
        throw new Error(`Mastra turn failed: ${res.status} ${JSON.stringify(body).slice(0, 200)}`);
    },
    cpuMs: () => processCpuMs(proc.pid),
    rssBytes: () => processRssBytes(proc.pid),
  };
}
