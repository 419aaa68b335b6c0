import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface NatsServer {
  url: string;
  /** Stops the server (SIGTERM): clients see their connection drop and start reconnecting. */
  stop(): Promise<void>;
  /** Starts it again on the same port (after `stop`), so clients reconnect to the same URL. */
  start(): Promise<void>;
  /** Everything the server logged since it first started (across `stop`/`start`). */
  log(): string;
}

const BINARIES = ['/usr/sbin/nats-server', '/usr/local/bin/nats-server', '/usr/bin/nats-server'];

/**
 * A real nats-server of the test's own, on a free port, with JetStream as the platform needs it
 * (keyed function calls' outcomes live in it; `{ jetstream: false }` for a bare broker), its store
 * in a temporary folder kept across `stop`/`start` like a real server's. Executors in one queue
 * group answer any `agent.run` on their server: a test that starts one must not share its broker
 * with other test files running in parallel, or their requests would reach each other's executors.
 * `config`: a server configuration's text (users and their permissions, say); `files` are written
 * beside it (for its `include`s); `env` is the server's environment (variables its config reads).
 */
export async function startNatsServer({
  jetstream = true,
  config,
  files = {},
  env,
}: {
  jetstream?: boolean;
  config?: string;
  files?: Record<string, string>;
  env?: Record<string, string>;
} = {}): Promise<NatsServer> {
  const binary = BINARIES.find((path) => existsSync(path)) ?? 'nats-server';
  const port = await freePort();
  const args = ['-a', '127.0.0.1', '-p', String(port)];
  if (jetstream) args.push('-js', '-sd', mkdtempSync(join(tmpdir(), 'nats-js-')));
  if (config) {
    const dir = mkdtempSync(join(tmpdir(), 'nats-conf-'));
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
    writeFileSync(join(dir, 'nats.conf'), config);
    args.push('-c', join(dir, 'nats.conf'));
  }
  let child: ChildProcess | undefined;
  let log = '';
  const start = async () => {
    if (child && child.exitCode === null && child.signalCode === null) return;
    child = spawn(binary, args, {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: env && { ...process.env, ...env },
    });
    const append = (chunk: Buffer) => (log += chunk.toString());
    child.stdout?.on('data', append);
    child.stderr?.on('data', append);
    await waitForReady(child);
  };
  await start();
  return {
    url: `nats://127.0.0.1:${port}`,
    start,
    log: () => log,
    stop: () =>
      new Promise<void>((resolve) => {
        if (!child || child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

function waitForReady(child: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`nats-server did not start:\n${output}`)), 10_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Server is ready')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`nats-server exited (${code}):\n${output}`));
    });
  });
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/**
 * `count` consecutive ports free on every interface (a supervisor gives replica i the port base + i),
 * below the kernel's ephemeral range (32768 and up), where no other test's `freePort` and no outgoing
 * connection takes them between this check and the services' start.
 */
export async function freePortRun(count: number): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const base = 20_000 + Math.floor(Math.random() * (12_000 - count));
    const held: ReturnType<typeof createServer>[] = [];
    try {
      for (let i = 0; i < count; i++) held.push(await listening(base + i));
      return base;
    } catch {
      // one of them is taken: try another run
    } finally {
      await Promise.all(held.map((server) => new Promise((resolve) => server.close(resolve))));
    }
  }
  throw new Error(`no run of ${count} free ports found below 32768`);
}

function listening(port: number): Promise<ReturnType<typeof createServer>> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(port, '0.0.0.0', () => resolve(server));
  });
}
