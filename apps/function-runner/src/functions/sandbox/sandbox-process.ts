import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { FunctionFailedError, TimeoutError } from '@app/contracts';
import type { Logger } from '@app/observability';
import type { ChildMessage, ParentMessage } from './sandbox-protocol';

export interface SandboxSpawnOptions {
  script: string;
  dir: string;
  memoryMb: number;
  /** Command run before node, e.g. `unshare -n`. */
  prefix: string[];
  logger: Logger;
  startTimeoutMs?: number;
}

type Request = Extract<ParentMessage, { type: 'load' | 'call' }>;
type WithoutId<T> = T extends unknown ? Omit<T, 'id'> : never;
type Answer = Extract<ChildMessage, { type: 'loaded' | 'result' }>;

export interface RequestOptions {
  signal?: AbortSignal;
  /** A network request of the function, answered through the guarded http_request. */
  onHttp?: (request: unknown) => Promise<unknown>;
}

interface Pending {
  id: number;
  resolve: (answer: Answer) => void;
  reject: (err: unknown) => void;
  onHttp?: RequestOptions['onHttp'];
}

const STDERR_TAIL = 4_096;

/** The sandbox entry: compiled next to this file in dist, run from source (types stripped) in tests. */
export function sandboxScript(dir = __dirname): string {
  const compiled = join(dir, 'sandbox.worker.js');
  return existsSync(compiled) ? compiled : join(dir, 'sandbox.worker.ts');
}

/** One sandbox process seen from the runner: one request at a time, killed on abort. */
export class SandboxProcess {
  private pending?: Pending;
  private startup?: { resolve: () => void; reject: (err: unknown) => void };
  private nextId = 1;
  private stderrTail = '';
  private exitReason?: string;
  readonly exited: Promise<void>;

  private constructor(
    private readonly child: ChildProcess,
    private readonly logger: Logger,
    private readonly memoryMb: number,
  ) {
    this.exited = new Promise((resolve) =>
      child.once('close', (code, signal) => this.onExit(code, signal, resolve)),
    );
    child.on('error', (err) => this.onError(err));
    child.on('message', (message: unknown) => this.onMessage(message));
    child.stderr?.on('data', (chunk: Buffer) => {
      this.stderrTail = (this.stderrTail + chunk.toString()).slice(-STDERR_TAIL);
      this.output(chunk);
    });
    child.stdout?.on('data', (chunk: Buffer) => this.output(chunk));
  }

  static async spawn(options: SandboxSpawnOptions): Promise<SandboxProcess> {
    const [command, ...args] = [...options.prefix, process.execPath, ...nodeFlags(options), options.script];
    const child = spawn(command, args, {
      env: {},
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
      serialization: 'json',
    });
    const sandbox = new SandboxProcess(child, options.logger, options.memoryMb);
    await sandbox.ready(options.startTimeoutMs ?? 10_000);
    return sandbox;
  }

  get alive(): boolean {
    return this.exitReason === undefined;
  }

  /** Sends one request; aborting the signal kills the process and rejects with its reason. */
  request(message: WithoutId<Request>, options: RequestOptions = {}): Promise<Answer> {
    if (!this.alive)
      return Promise.reject(new FunctionFailedError(`the sandbox is gone: ${this.exitReason}`));
    if (this.pending) return Promise.reject(new Error('a sandbox runs one request at a time'));
    const { signal } = options;
    if (signal?.aborted) return Promise.reject(signal.reason);
    const id = this.nextId++;
    return new Promise<Answer>((resolve, reject) => {
      const onAbort = () => {
        this.kill();
        reject(signal?.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      const settle =
        <T>(fn: (v: T) => void) =>
        (value: T) => {
          signal?.removeEventListener('abort', onAbort);
          this.pending = undefined;
          fn(value);
        };
      this.pending = { id, resolve: settle(resolve), reject: settle(reject), onHttp: options.onHttp };
      this.send({ ...message, id } as Request);
    });
  }

  kill(): void {
    if (this.alive) this.exitReason ??= 'killed by the runner';
    this.child.kill('SIGKILL');
  }

  private ready(timeoutMs: number): Promise<void> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.kill();
        reject(new TimeoutError(`the sandbox did not start within ${timeoutMs} ms`));
      }, timeoutMs);
      this.startup = {
        resolve: () => (clearTimeout(timer), resolve()),
        reject: (err) => (clearTimeout(timer), reject(err)),
      };
    });
  }

  /** Messages come from plugin code, which can `process.send` anything: never trust their shape. */
  private onMessage(raw: unknown): void {
    if (typeof raw !== 'object' || raw === null) return;
    try {
      this.handle(raw as ChildMessage);
    } catch (err) {
      this.logger.warn('a sandbox message could not be handled', { err });
    }
  }

  private handle(message: ChildMessage): void {
    if (message.type === 'ready') {
      this.startup?.resolve();
      this.startup = undefined;
    } else if (message.type === 'log') {
      this.log(message);
    } else if (message.type === 'crashed') {
      // it exits right after: no further call may be handed to it
      this.exitReason ??= `it crashed: ${message.message}`;
      this.pending?.reject(new FunctionFailedError(message.message));
    } else if (message.type === 'http') {
      if (this.pending) this.answerHttp(this.pending, message.id, message.request);
    } else if (message.id === this.pending?.id) {
      if (message.type === 'failed') this.pending.reject(new FunctionFailedError(message.message));
      else this.pending.resolve(message);
    }
  }

  private answerHttp(pending: Pending, id: number, request: unknown): void {
    const answer = pending.onHttp
      ? pending.onHttp(request).then(
          (value): ParentMessage => ({ type: 'http-reply', id, ok: true, value }),
          (err: unknown): ParentMessage => ({
            type: 'http-reply',
            id,
            ok: false,
            message: (err as Error)?.message ?? String(err),
          }),
        )
      : Promise.resolve<ParentMessage>({
          type: 'http-reply',
          id,
          ok: false,
          message: 'network access is not available here',
        });
    void answer.then((reply) => this.send(reply));
  }

  private output(chunk: Buffer): void {
    this.logger.debug('sandbox output', { text: chunk.toString().slice(0, 500) });
  }

  private log(message: Extract<ChildMessage, { type: 'log' }>): void {
    const level = ['debug', 'info', 'warn', 'error'].includes(message.level) ? message.level : 'info';
    const fields = message.fields === undefined ? undefined : JSON.stringify(message.fields).slice(0, 2_000);
    this.logger[level](`plugin: ${String(message.message).slice(0, 2_000)}`, { plugin_fields: fields });
  }

  private send(message: ParentMessage): void {
    if (!this.alive || !this.child.connected) return;
    this.child.send(message, (err) => {
      if (err)
        this.pending?.reject(new FunctionFailedError(`the sandbox could not be reached: ${err.message}`));
    });
  }

  private onError(err: Error): void {
    this.logger.warn('sandbox process error', { err });
    if (this.child.pid !== undefined) return;
    this.exitReason ??= `it could not be started: ${err.message}`;
    this.startup?.reject(new FunctionFailedError(`the sandbox did not start: ${this.exitReason}`));
  }

  private onExit(code: number | null, signal: NodeJS.Signals | null, resolve: () => void): void {
    this.exitReason ??= describeExit(code, signal, this.stderrTail, this.memoryMb);
    if (this.exitReason !== 'killed by the runner') {
      // Ctrl-C in a terminal signals the whole process group, sandboxes included: a stop, not a fault.
      const stopped = signal === 'SIGINT' || signal === 'SIGTERM' || signal === 'SIGHUP';
      this.logger[stopped ? 'info' : 'warn'](`sandbox process stopped: ${this.exitReason}`, {
        pid: this.child.pid,
        stderr: this.stderrTail.slice(-1_000),
      });
    }
    this.startup?.reject(
      new FunctionFailedError(
        `the sandbox did not start: ${this.exitReason}: ${this.stderrTail.slice(0, 300)}`,
      ),
    );
    this.pending?.reject(new FunctionFailedError(`the function's sandbox stopped: ${this.exitReason}`));
    resolve();
  }
}

function nodeFlags(o: SandboxSpawnOptions): string[] {
  return [
    '--permission',
    `--allow-fs-read=${o.script}`,
    `--allow-fs-read=${o.dir}`,
    `--max-old-space-size=${o.memoryMb}`,
    '--disable-warning=MODULE_TYPELESS_PACKAGE_JSON',
  ];
}

function describeExit(
  code: number | null,
  signal: NodeJS.Signals | null,
  stderr: string,
  memoryMb: number,
): string {
  if (/heap out of memory|Allocation failed/i.test(stderr))
    return `it ran out of memory (limit ${memoryMb} MB)`;
  if (signal) return `it was ended by ${signal}`;
  return `it exited with code ${code}`;
}
