import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'vitest';
import { stringify } from 'yaml';
import { connectMigrated, type Db } from '@app/persistence';
import { expectEventually, freePort, REPO_ROOT, type ScriptedLlm, startScriptedLlm } from '@app/testing';
import {
  type CountingFunction,
  serveCountingFunction,
} from '../../apps/scheduler/src/testing/scheduler.harness';
import { LEASE_ENV } from '../durable/durable-stack';
import { alive } from '../platform/npm-start.harness';

const run = promisify(execFile);

export const ADMIN_KEY = 'ac_cluster_test_admin_key_0123456789abcd';
/** The runner's password, so that the test's own function provider connects as deployed. */
const RUNNER_PASSWORD = `ac${process.pid}runner`;

/** The pieces a test can kill, as `npm run cluster` names them. */
export type Piece =
  | 'nats-1'
  | 'nats-2'
  | 'nats-3'
  | 'postgres'
  | 'redis'
  | 'haproxy'
  | 'gateway'
  | 'agent-executor'
  | 'function-runner'
  | 'scheduler';

export type NatsNode = `nats-${1 | 2 | 3}`;

export interface Cluster {
  /** Through HAProxy. */
  base: string;
  /** Each gateway directly (127.0.0.1:<its port>), in the order started. */
  gateways: string[];
  natsUrl: string;
  db: Db;
  llm: ScriptedLlm;
  /** A function served by the test as the function-runner user: it counts its calls by tag. */
  fn: CountingFunction;
  output(): string;
  /** The live processes of one piece (several for a replicated service). */
  pids(piece: Piece): Promise<number[]>;
  /** The gateway process listening on `port`. */
  gatewayPid(port: number): Promise<number | undefined>;
  /** Signals one process of `piece` (the first unless `pid`); resolves once it is gone. */
  kill(piece: Piece, signal?: NodeJS.Signals, pid?: number): Promise<number>;
  /** Resolves once `piece` runs `count` processes again (the supervisor restarts what died). */
  restarted(piece: Piece, count: number): Promise<void>;
  /** Resolves once a NATS node's `/healthz` says it is up and its JetStream current (a rolling restart's gate). */
  natsHealthy(piece: NatsNode): Promise<void>;
  /**
   * Kills a NATS node with -9 and keeps it down (its configuration moved aside: the supervisor's
   * restarts fail at once, backing off to one every 10 s); `release` puts the configuration back
   * and resolves once the node runs again and is current.
   */
  holdDown(piece: NatsNode): Promise<{ release(): Promise<void> }>;
  close(): Promise<void>;
}

/**
 * `npm run cluster` as an operator runs it (three NATS nodes, PostgreSQL, Redis, HAProxy, the
 * services replicated), with the scripted model at `stepMs` a step, short leases, and a counting
 * function of the test's own on the cluster's NATS.
 */
export async function startCluster({
  stepMs = 1_000,
  env = {},
  config = {},
}: {
  stepMs?: number;
  /** Settings of the cluster's services instead of the load's (e.g. a small rate limit). */
  env?: Record<string, string>;
  /** More of the platform's configuration file: `agents` added to the cluster's own, the rest as given (e.g. `pricing`). */
  config?: { agents?: Record<string, unknown>[]; [section: string]: unknown };
} = {}): Promise<Cluster> {
  const llm = await startScriptedLlm({ latencyMs: stepMs });
  const port = await freePort();
  const { child, output, exited } = launch(llm, port, env, config);
  const line = (pattern: RegExp) =>
    expectEventually(
      () => {
        expect(child.exitCode, output().slice(-3000)).toBeNull();
        const match = pattern.exec(output());
        expect(match, `waiting for ${pattern}`).not.toBeNull();
        return match!;
      },
      { timeoutMs: 120_000, intervalMs: 250 },
    );
  try {
    await line(/cluster ready at/);
    await line(/JetStream: RUN_EVENTS R3, KV_fn_outcomes R3/);
  } catch (err) {
    child.kill('SIGKILL');
    await llm.close();
    throw err;
  }
  const nodes = [...output().matchAll(/nats-\d on (127\.0\.0\.1:\d+)/g)].map((m) => `nats://${m[1]}`);
  const natsUrl = nodes.slice(0, 3).join(',');
  const gateways = /gateways on ([^\n]+)/
    .exec(output())![1]
    .split(', ')
    .map((at) => `http://${at.trim()}`);
  const databaseUrl = /postgres on (127\.0\.0\.1:\d+)/.exec(output())![1];
  const { db } = await connectMigrated(`postgresql://postgres@${databaseUrl}/postgres`, REPO_ROOT);
  const fn = await serveCountingFunction(natsUrl, {
    connect: { user: 'function-runner', password: RUNNER_PASSWORD, inboxPrefix: '_INBOX.function-runner' },
  });
  const pids = async (piece: Piece) =>
    (await descendantsOf(child.pid!)).filter((p) => matches(piece, p.command)).map((p) => p.pid);
  const gatewayPid = async (gatewayPort: number) =>
    (await pids('gateway')).find((pid) => environ(pid).PORT === String(gatewayPort));
  return {
    base: `http://127.0.0.1:${port}`,
    gateways,
    natsUrl,
    db,
    llm,
    fn,
    output,
    pids,
    gatewayPid,
    kill: async (piece, signal = 'SIGKILL', pid) => {
      const target = pid ?? (await pids(piece))[0];
      if (target === undefined) throw new Error(`no ${piece} is running`);
      process.kill(target, signal);
      await expectEventually(() => expect(alive(target)).toBe(false), { timeoutMs: 30_000 });
      return target;
    },
    restarted: (piece, count) =>
      expectEventually(async () => expect(await pids(piece)).toHaveLength(count), {
        timeoutMs: 60_000,
        intervalMs: 250,
      }),
    natsHealthy: (piece) => untilHealthy(natsMonitorOf(output(), piece)),
    holdDown: (piece) => holdDown(output, pids, piece),
    close: async () => {
      await fn.close().catch(() => undefined);
      await db.$disconnect();
      const all = (await descendantsOf(child.pid!)).map((p) => p.pid);
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
      await expectEventually(() => expect(all.filter(alive)).toEqual([]), { timeoutMs: 30_000 });
      await llm.close();
    },
  };
}

/** Cluster['holdDown']: the node's configuration moved aside while it is down. */
async function holdDown(output: () => string, pids: (piece: Piece) => Promise<number[]>, piece: NatsNode) {
  const conf = join(clusterFolder(output()), `${piece}.conf`);
  renameSync(conf, `${conf}.held`);
  process.kill((await pids(piece))[0], 'SIGKILL');
  // down: each restart the supervisor tries exits at once, without a configuration
  await expectEventually(async () => expect(await pids(piece)).toEqual([]), { timeoutMs: 30_000 });
  return {
    release: async () => {
      renameSync(`${conf}.held`, conf);
      await expectEventually(async () => expect(await pids(piece)).toHaveLength(1), {
        timeoutMs: 60_000,
        intervalMs: 250,
      });
      await untilHealthy(natsMonitorOf(output(), piece));
    },
  };
}

/** `npm run cluster` as a child of the test: its output kept, its exit awaited. */
function launch(
  llm: ScriptedLlm,
  port: number,
  env: Record<string, string>,
  { agents: more = [], ...sections }: { agents?: Record<string, unknown>[]; [section: string]: unknown },
) {
  const configFile = join(mkdtempSync(join(tmpdir(), 'ac-cluster-')), 'agentchassis.yaml');
  // `gated` holds every call of a counting function (`count_<id>`) for a decision; `caller` calls
  // the caller's own tools (its protocol is xml-toon: a native agent cannot)
  const agents = [
    { name: 'caller' },
    { name: 'helper', protocol: 'native' },
    { name: 'gated', protocol: 'native', allowed_tools: ['*'], needs_approval: ['count_*'] },
    ...more,
  ];
  writeFileSync(configFile, stringify({ ...sections, agents }));
  let text = '';
  const child: ChildProcess = spawn(process.execPath, ['scripts/start.mjs', '--cluster', '--no-build'], {
    cwd: REPO_ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '/tmp',
      LOG_FORMAT: 'text',
      LOG_LEVEL: 'warn',
      PORT: String(port),
      AC_CONFIG: configFile,
      AC_ADMIN_KEY: ADMIN_KEY,
      LLM_PROVIDER: 'openai-compatible',
      LLM_BASE_URL: llm.url,
      LLM_MODEL: 'scripted-model',
      LLM_MAX_RETRIES: '2',
      NATS_RUNNER_PASSWORD: RUNNER_PASSWORD,
      // the load is one key's: its limits are not what these tests measure
      RATE_LIMIT_PER_MINUTE: '1000000',
      MAX_CONCURRENT_RUNS_PER_KEY: '10000',
      ...LEASE_ENV,
      SHUTDOWN_TIMEOUT: '5s',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (d: Buffer) => (text += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (text += d.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return { child, output: () => text, exited };
}

/** Resolves once a NATS node's `/healthz` answers 200 (JetStream current on it). */
function untilHealthy(monitor: string): Promise<void> {
  return expectEventually(
    async () => {
      const res = await fetch(`${monitor}/healthz`).catch((err: Error) => err);
      expect(res instanceof Response ? res.status : res.message).toBe(200);
    },
    { timeoutMs: 60_000, intervalMs: 250 },
  );
}

/** A NATS node's monitoring address, from its configuration file (named in the cluster's output). */
function natsMonitorOf(output: string, piece: string): string {
  const conf = readFileSync(join(clusterFolder(output), `${piece}.conf`), 'utf8');
  return `http://${/^http: (\S+)/m.exec(conf)![1]}`;
}

/** The cluster's folder (configurations, data and logs), as its output names it. */
function clusterFolder(output: string): string {
  const dir = /cluster folder (\S+)/.exec(output)?.[1];
  if (!dir) throw new Error('the cluster did not name its folder');
  return dir;
}

function matches(piece: Piece, command: string): boolean {
  if (piece.startsWith('nats-')) return command.includes('nats-server') && command.includes(`${piece}.conf`);
  if (piece === 'postgres') return /\/postgres -D /.test(command);
  if (piece === 'redis') return command.startsWith('redis-server') || command.includes('/redis-server');
  if (piece === 'haproxy') return command.includes('haproxy');
  return command.includes(`dist/apps/${piece}/src/main.js`);
}

function environ(pid: number): Record<string, string> {
  try {
    const text = readFileSync(`/proc/${pid}/environ`, 'utf8');
    return Object.fromEntries(
      text
        .split('\0')
        .filter(Boolean)
        .map((entry) => [entry.slice(0, entry.indexOf('=')), entry.slice(entry.indexOf('=') + 1)]),
    );
  } catch {
    return {};
  }
}

/**
 * The live processes below `root` with their command lines, from one `ps` run asynchronously: the
 * counting function is served from this process, whose event loop must not stall on it.
 */
async function descendantsOf(root: number): Promise<{ pid: number; command: string }[]> {
  const { stdout } = await run('ps', ['-e', '-o', 'pid=,ppid=,args='], { maxBuffer: 16 * 1024 * 1024 });
  const table = stdout
    .trim()
    .split('\n')
    .map((row) => {
      const [, pid, ppid, command] = /^\s*(\d+)\s+(\d+)\s+(.*)$/.exec(row) ?? [];
      return { pid: Number(pid), ppid: Number(ppid), command: command ?? '' };
    });
  const found: { pid: number; command: string }[] = [];
  const walk = (parent: number) => {
    for (const row of table)
      if (row.ppid === parent) {
        found.push(row);
        walk(row.pid);
      }
  };
  walk(root);
  return found;
}
