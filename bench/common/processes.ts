// Processes a benchmark starts (from the repository root) and what /proc says about them.
import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { treeCpuMs } from './process-tree.mjs';

/** Run from the repository root. */
export const ROOT = resolve(process.cwd());

/** Something started that must be stopped at the end, started or not. */
export interface Stoppable {
  stop(): Promise<void>;
}

/**
 * CPU ms a process has used so far with every process it started (a function-runner's sandboxes,
 * the ones it replaced included), from /proc (Linux).
 */
export function processCpuMs(pid: number | undefined): number {
  return pid ? treeCpuMs(pid) : Number.NaN;
}

export function processRssBytes(pid: number | undefined): number {
  if (!pid) return Number.NaN;
  const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Number(kb) * 1024;
}

export interface Proc {
  name: string;
  pid: number | undefined;
  output(): string;
  stop(): Promise<void>;
}

export async function startProcess(
  name: string,
  args: string[],
  env: Record<string, string>,
  ready: RegExp,
  started: Stoppable[],
  /** Logs go to this file (appended, shared by the services), as a deployment's log collector reads them. */
  logFile?: string,
): Promise<Proc> {
  const fd = logFile ? openSync(logFile, 'a') : undefined;
  const child: ChildProcess = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', LOG_FORMAT: 'text', ...env },
    stdio: fd === undefined ? ['ignore', 'pipe', 'pipe'] : ['ignore', fd, fd],
  });
  if (fd !== undefined) closeSync(fd);
  let output = '';
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  // With logs in a file, readiness is read from this process's own lines there.
  const current = () =>
    logFile
      ? readFileSync(logFile, 'utf8')
          .split('\n')
          .filter((line) => line.includes(`"service":"${name}"`))
          .join('\n')
      : output;
  const proc: Proc = {
    name,
    pid: child.pid,
    output: current,
    stop: () =>
      new Promise<void>((done) => {
        if (child.exitCode !== null) return done();
        child.once('exit', () => done());
        child.kill('SIGTERM');
      }),
  };
  started.push(proc);
  const deadline = Date.now() + 30_000;
  while (!ready.test(current())) {
    if (child.exitCode !== null || Date.now() > deadline)
      throw new Error(`${name} did not start:\n${current()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return proc;
}
