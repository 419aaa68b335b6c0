import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import {
  gatewayUrl,
  migratedSqliteUrl,
  type NatsServer,
  REPO_ROOT,
  type ScriptedLlm,
  type ServiceProcess,
  startNatsServer,
  startScriptedLlm,
  startService,
} from '@app/testing';

export const ADMIN_KEY = 'ac_mcp_spec_admin_key_0123456789';
export const EVERYTHING = join(
  REPO_ROOT,
  'node_modules/@modelcontextprotocol/server-everything/dist/index.js',
);
export const FILESYSTEM = join(
  REPO_ROOT,
  'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js',
);
export const TINY = join(REPO_ROOT, 'test/mcp/fixtures/tiny-mcp-server.mjs');

export interface McpStack {
  base: string;
  env: Record<string, string>;
  llm: ScriptedLlm;
  nats: NatsServer;
  gateway: ServiceProcess;
  executor: ServiceProcess;
  runners: ServiceProcess[];
  close(): Promise<void>;
}

/**
 * Gateway, executor and `runners` function-runners as built processes on a broker of their own,
 * with `mcp.servers`, `agents` (and `a2a.agents`) in the config file, API keys on (the admin key above).
 */
export async function startMcpStack(options: {
  servers: Record<string, unknown>[];
  agents?: Record<string, unknown>[];
  runners?: number;
  env?: Record<string, string>;
  /** `a2a.agents`: remote A2A agents the runners serve as functions. */
  a2aAgents?: Record<string, unknown>[];
}): Promise<McpStack> {
  const nats = await startNatsServer();
  const llm = await startScriptedLlm();
  const configFile = join(mkdtempSync(join(tmpdir(), 'ac-mcp-')), 'agentchassis.yaml');
  writeFileSync(
    configFile,
    stringify({
      mcp: { servers: options.servers },
      agents: options.agents ?? [],
      ...(options.a2aAgents ? { a2a: { agents: options.a2aAgents } } : {}),
    }),
  );
  const env = {
    AC_CONFIG: configFile,
    NATS_URL: nats.url,
    DATABASE_URL: await migratedSqliteUrl(),
    PORT: '0',
    AC_ADMIN_KEY: ADMIN_KEY,
    LLM_PROVIDER: 'openai-compatible',
    LLM_BASE_URL: llm.url,
    LLM_MODEL: 'scripted-model',
    LLM_MAX_RETRIES: '0',
    FUNCTIONS_DIR: join(configFile, '..', 'no-functions'),
    ...options.env,
  };
  const started = await Promise.allSettled([
    startService('gateway', env),
    startService('agent-executor', env),
    ...Array.from({ length: options.runners ?? 1 }, () =>
      startService('function-runner', env, { readyTimeoutMs: 40_000 }),
    ),
  ]);
  const services = started.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
  const failed = started.find((r) => r.status === 'rejected');
  if (failed) {
    await Promise.all(services.map((s) => s.stop()));
    await Promise.all([llm.close(), nats.stop()]);
    throw failed.reason;
  }
  const [gateway, executor, ...runners] = services;
  return {
    base: gatewayUrl(gateway),
    env,
    llm,
    nats,
    gateway,
    executor,
    runners,
    close: async () => {
      await Promise.all(services.map((s) => s.stop()));
      await llm.close();
      await nats.stop();
    },
  };
}

/** The JSON bodies of the REST API, loosely. */
export interface ApiBody {
  status?: string;
  result?: { message?: string; data?: unknown };
  error?: { code: string; message: string; details?: unknown };
  functions?: { name: string }[];
  function_calls?: unknown[];
  key?: string;
  [key: string]: unknown;
}

export async function api(base: string, method: string, path: string, body?: unknown, key = ADMIN_KEY) {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as ApiBody };
}

/** The processes a runner started whose command line contains `marker` (its MCP servers). */
export function childrenOf(runner: ServiceProcess, marker: string): number[] {
  const out = execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(runner.child.pid)], {
    encoding: 'utf8',
  });
  return out
    .split('\n')
    .filter((line) => line.includes(marker))
    .map((line) => Number(line.trim().split(/\s+/)[0]));
}

export const SESSION_HTTP = join(REPO_ROOT, 'test/mcp/fixtures/session-http-server.mjs');

/**
 * An HTTP MCP server as its own process (server-everything in its Streamable HTTP mode by
 * default); resolves once it listens on `port`.
 */
export async function startHttpServer(
  port: number,
  args = [EVERYTHING, 'streamableHttp'],
): Promise<ChildProcess> {
  const child = spawn(process.execPath, args, {
    env: { PATH: process.env.PATH ?? '', PORT: String(port) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  await new Promise<void>((resolve, reject) => {
    let output = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('listening')) resolve();
    });
    child.once('exit', () => reject(new Error(`server-everything exited: ${output}`)));
  });
  return child;
}

export async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}
