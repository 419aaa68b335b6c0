import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { setTimeout as delay } from 'node:timers/promises';
import type { ServiceName } from '@app/contracts';
import { Migrator } from '@app/persistence';
import { freshPostgresDatabase, freshSqliteUrl } from './databases';
import { nodeFlags } from './node-flags';

/** The repository root, from src (vitest) or dist (benchmarks) alike. */
export const REPO_ROOT = findRoot(__dirname);

function findRoot(from: string): string {
  for (let dir = from; dir !== dirname(dir); dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'prisma'))) return dir;
  }
  return resolve(from, '../../..');
}

export interface ServiceProcess {
  name: ServiceName;
  child: ChildProcess;
  /** Everything the process printed so far (stdout and stderr). */
  output(): string;
  /** SIGTERM and wait for the exit; resolves with the exit code. */
  stop(): Promise<number | null>;
  /** SIGKILL, as a crash would. */
  kill(): Promise<void>;
  exited: Promise<number | null>;
}

/**
 * Starts one built service (`npm run build` first: the test script does) as its own process,
 * as in production, and waits for its "ready" line.
 */
export async function startService(
  name: ServiceName,
  env: Record<string, string>,
  { readyTimeoutMs = 20_000 }: { readyTimeoutMs?: number } = {},
): Promise<ServiceProcess> {
  const main = join(REPO_ROOT, 'dist/apps', name, 'src/main.js');
  if (!existsSync(main)) throw new Error(`${main} is missing: run 'npm run build' first`);
  // The same V8 flags as production, so tests see its memory.
  const child = spawn(process.execPath, [...nodeFlags(REPO_ROOT), main], {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH ?? '', LOG_FORMAT: 'text', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  // Its last lines may still be in the pipes when it exits: read them, but do not wait on a
  // sandbox that inherited the pipes and outlives it.
  const exited = new Promise<number | null>((res) =>
    child.once('exit', (code) => void outputDrained(child, 500).then(() => res(code))),
  );
  await waitForReady(name, () => output, exited, readyTimeoutMs).catch((err: unknown) => {
    child.kill('SIGKILL');
    throw err;
  });
  return {
    name,
    child,
    exited,
    output: () => output,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      return exited;
    },
    kill: async () => {
      if (child.exitCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}

function outputDrained(child: ChildProcess, maxMs: number): Promise<void> {
  const closed = (stream: Readable | null) =>
    !stream || stream.readableEnded ? Promise.resolve() : once(stream, 'close').then(() => undefined);
  return Promise.race([
    Promise.all([closed(child.stdout), closed(child.stderr)]).then(() => undefined),
    delay(maxMs, undefined, { ref: false }),
  ]);
}

async function waitForReady(
  name: string,
  output: () => string,
  exited: Promise<number | null>,
  timeoutMs: number,
) {
  const deadline = Date.now() + timeoutMs;
  let done = false;
  void exited.then(() => (done = true));
  while (!output().includes(`${name} `) || !/ ready\b/.test(output())) {
    if (done) throw new Error(`${name} exited before it was ready:\n${output()}`);
    if (Date.now() > deadline) throw new Error(`${name} was not ready within ${timeoutMs} ms:\n${output()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The gateway's base URL, read from its "ready" line (PORT=0 picks a free port). */
export function gatewayUrl(gateway: ServiceProcess): string {
  const match = /http:\/\/[^:\s"]+:(\d+)/.exec(gateway.output());
  if (!match) throw new Error(`no HTTP endpoint in the gateway's output:\n${gateway.output()}`);
  return `http://127.0.0.1:${match[1]}`;
}

/** A migrated SQLite database for a test stack. */
export async function migratedSqliteUrl(): Promise<string> {
  return migrate(freshSqliteUrl());
}

/** Both databases, each created empty and migrated, for tests that must hold on either. */
export const MIGRATED_DATABASES = [
  { name: 'SQLite', create: async () => ({ url: await migratedSqliteUrl(), drop: async () => undefined }) },
  {
    name: 'PostgreSQL',
    create: async () => {
      const database = await freshPostgresDatabase();
      await migrate(database.url);
      return database;
    },
  },
];

async function migrate(url: string): Promise<string> {
  const migrator = await Migrator.open(url, REPO_ROOT);
  await migrator.deploy();
  await migrator.close();
  return url;
}
