import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import { expectEventually, freePort, freshSqliteUrl, REPO_ROOT, startNatsServer } from '@app/testing';

export { freePort };

export const ADMIN_KEY = 'ac_npm_start_test_admin_key_0123456789';

/** `npm start` as a user runs it: a real npm process, its supervisor and the services under it. */
export interface NpmStart {
  npm: ChildProcess;
  base: string;
  output(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Every live process below npm (supervisor, services, sandboxes), from the process table. */
  descendants(): number[];
  /** The live service processes, by the name in their `dist/apps/<name>` path. */
  services(name?: string): number[];
  close(): Promise<void>;
}

/** What a terminal does on Ctrl-C: SIGINT to every process of the foreground process group. */
export function ctrlC(app: NpmStart): void {
  process.kill(-app.npm.pid!, 'SIGINT');
}

/**
 * Spawns `npm start -- --no-build <args>` with its own NATS, a fresh SQLite database, a free port and its own
 * BullMQ prefix on the suite's Redis; `env` overrides any of them.
 */
export async function startNpm(args: string[] = [], env: Record<string, string> = {}): Promise<NpmStart> {
  const nats = env.NATS_URL ? undefined : await startNatsServer();
  const port = await freePort();
  let output = '';
  // `npm test` builds before the suites run; a build here would rewrite dist under other suites.
  const npm = spawn('npm', ['start', '--silent', '--', '--no-build', ...args], {
    cwd: REPO_ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '/tmp',
      LOG_FORMAT: 'text',
      NATS_URL: nats?.url ?? '',
      DATABASE_URL: freshSqliteUrl(),
      PORT: String(port),
      AC_ADMIN_KEY: ADMIN_KEY,
      SCHEDULER_QUEUE_PREFIX: `npm-start-${randomUUID().slice(0, 8)}`,
      SHUTDOWN_TIMEOUT: '10s',
      // A model configured (never called here), or /health answers 503 "llm: not configured".
      LLM_PROVIDER: 'openai-compatible',
      LLM_BASE_URL: 'http://127.0.0.1:9/v1',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group, as a terminal's foreground job: see ctrlC.
    detached: true,
  });
  npm.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  npm.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    npm.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const descendants = () => descendantsOf(npm.pid!);
  const services = (name = '') => descendants().filter((pid) => commandOf(pid).includes(`dist/apps/${name}`));
  return {
    npm,
    base: `http://127.0.0.1:${port}`,
    output: () => output,
    exited,
    descendants,
    services,
    close: async () => {
      const pids = descendants();
      if (npm.exitCode === null && npm.signalCode === null) npm.kill('SIGTERM');
      await exited;
      await expectEventually(() => expect(pids.filter(alive)).toEqual([]), { timeoutMs: 20_000 });
      await nats?.stop();
    },
  };
}

/** Waits for `/health` 200 with every service up. */
export async function waitHealthy(app: NpmStart, timeoutMs = 60_000): Promise<void> {
  await expectEventually(
    async () => {
      expect(app.npm.exitCode, app.output()).toBeNull();
      const res = await fetch(`${app.base}/health`);
      expect(res.status).toBe(200);
    },
    { timeoutMs, intervalMs: 200 },
  );
}

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return !zombie(pid);
  } catch {
    return false;
  }
}

/** Resolves when nothing accepts connections on the platform's port any more. */
export async function portClosed(base: string): Promise<void> {
  await expect(fetch(`${base}/health`)).rejects.toThrow();
}

function descendantsOf(root: number): number[] {
  const table = execFileSync('ps', ['-e', '-o', 'pid=,ppid='], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .map((line) => line.trim().split(/\s+/).map(Number));
  const found: number[] = [];
  const walk = (parent: number) => {
    for (const [pid, ppid] of table)
      if (ppid === parent) {
        found.push(pid);
        walk(pid);
      }
  };
  walk(root);
  return found.filter((pid) => pid !== root);
}

/** An exited process its parent has not reaped yet: gone, as far as these tests care. */
function zombie(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch {
    return false;
  }
}

export function commandOf(pid: number): string {
  try {
    return execFileSync('ps', ['-o', 'args=', '-p', String(pid)], { encoding: 'utf8' }).trim();
  } catch {
    return '';
  }
}
