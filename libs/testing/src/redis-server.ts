import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './nats-server';

export interface RedisServer {
  url: string;
  /** SIGKILL: the server and (no persistence) everything it held are gone. */
  kill(): Promise<void>;
  /** Starts it again on the same port, empty. */
  start(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * A real redis-server of the test's own on a free port, without persistence, so a test can take
 * it away and bring it back empty (as a restart of a Redis that keeps nothing on disk does).
 */
export async function startRedisServer(): Promise<RedisServer> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'ac-redis-'));
  let child: ChildProcess | undefined;
  const start = async () => {
    child = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    await ready(child);
  };
  const kill = (signal: NodeJS.Signals) => () =>
    new Promise<void>((resolve) => {
      if (!child || child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill(signal);
    });
  await start();
  return { url: `redis://127.0.0.1:${port}`, kill: kill('SIGKILL'), start, stop: kill('SIGTERM') };
}

function ready(child: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`redis-server did not start:\n${output}`)), 10_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (/Ready to accept connections/.test(output)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('error', (err) => (clearTimeout(timer), reject(err)));
    child.once(
      'exit',
      (code) => (clearTimeout(timer), reject(new Error(`redis-server exited (${code}):\n${output}`))),
    );
  });
}
