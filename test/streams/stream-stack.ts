import { request } from 'node:http';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import type { ServiceName } from '@app/contracts';
import {
  gatewayUrl,
  migratedSqliteUrl,
  type NatsWithUsers,
  type ScriptedLlm,
  type ServiceProcess,
  startNatsWithUsers,
  startScriptedLlm,
  startService,
} from '@app/testing';
import { pluginFolder } from '../functions/plugins';
import type { SseEvent } from '../chat/chat-stack';

const ADD = `export default { name: 'add', description: 'Adds a and b.',
  parameters: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } } },
  execute(p) { return { sum: p.a + p.b }; } };`;

export interface StreamStack {
  nats: NatsWithUsers;
  llm: ScriptedLlm;
  /** The gateways' base URLs: two, against the same NATS and database. */
  gateways: { base: string; process: ServiceProcess }[];
  close(): Promise<void>;
}

/**
 * Two gateways, an executor and a function-runner (serving `add`) as built processes, each its
 * own NATS user of deploy/nats/auth.conf on a nats-server of the test's own, one SQLite database.
 */
export async function startStreamStack(): Promise<StreamStack> {
  const [nats, llm] = await Promise.all([startNatsWithUsers(), startScriptedLlm()]);
  const config = join(mkdtempSync(join(tmpdir(), 'ac-streams-')), 'agentchassis.yaml');
  writeFileSync(config, stringify({ agents: [{ name: 'default', allowed_tools: ['add'] }] }));
  const env = {
    AC_CONFIG: config,
    DATABASE_URL: await migratedSqliteUrl(),
    PORT: '0',
    LLM_PROVIDER: 'openai-compatible',
    LLM_BASE_URL: llm.url,
    LLM_MODEL: 'scripted-model',
    LLM_MAX_RETRIES: '0',
    AUTH_ENABLED: 'false',
    FUNCTIONS_DIR: pluginFolder({ 'add.mjs': ADD }),
  };
  const names: ServiceName[] = ['gateway', 'gateway', 'agent-executor', 'function-runner'];
  const started = await Promise.allSettled(
    names.map((name) => startService(name, { ...env, ...nats.envOf(name) }, { readyTimeoutMs: 60_000 })),
  );
  const processes = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const close = async () => {
    await Promise.all(processes.map((p) => p.stop()));
    await llm.close();
    await nats.stop();
  };
  const failed = started.find((s) => s.status === 'rejected');
  if (failed) {
    await close();
    throw failed.reason;
  }
  const gateways = processes
    .filter((p) => p.name === 'gateway')
    .map((process) => ({ base: gatewayUrl(process), process }));
  return { nats, llm, gateways, close };
}

export interface StreamRead {
  status: number;
  events: SseEvent[];
  /** Whether the test cut the connection (`cutAfter` said so) rather than the server ending the stream. */
  cut: boolean;
  body?: unknown;
}

/**
 * One HTTP request read as server-sent events, over a socket of its own: when `cutAfter` says so
 * for an event, the socket is destroyed there, as a dropped connection would be.
 */
export function readStream(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: unknown } = {},
  cutAfter: (event: SseEvent) => boolean = () => false,
): Promise<StreamRead> {
  return new Promise((resolve, reject) => {
    const body = init.body === undefined ? undefined : JSON.stringify(init.body);
    const req = request(url, {
      method: init.method ?? 'GET',
      agent: false,
      headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...init.headers },
    });
    req.on('error', reject);
    req.on('response', (res) => {
      const events: SseEvent[] = [];
      let buffer = '';
      let cut = false;
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        if (cut) return;
        buffer += chunk;
        let end: number;
        while (!cut && (end = buffer.indexOf('\n\n')) >= 0) {
          const event = parseBlock(buffer.slice(0, end));
          buffer = buffer.slice(end + 2);
          if (!event) continue;
          events.push(event);
          if (cutAfter(event)) {
            cut = true;
            res.socket.destroy();
            resolve({ status: res.statusCode ?? 0, events, cut });
          }
        }
      });
      res.on('end', () => {
        if (cut) return;
        const json = res.headers['content-type']?.startsWith('application/json');
        resolve({ status: res.statusCode ?? 0, events, cut, body: json ? JSON.parse(buffer) : undefined });
      });
      res.on('error', (err) => (cut ? undefined : reject(err)));
    });
    req.end(body);
  });
}

function parseBlock(block: string): SseEvent | undefined {
  const fields: Record<string, string> = {};
  for (const line of block.split('\n')) {
    if (!line || line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    fields[line.slice(0, colon)] = line.slice(colon + 1).trim();
  }
  if (!fields.event) return undefined;
  return { event: fields.event, id: fields.id, data: JSON.parse(fields.data ?? 'null') };
}
