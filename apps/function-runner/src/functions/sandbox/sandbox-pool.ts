import { AppError, TimeoutError } from '@app/contracts';
import type { FunctionContext } from '@app/functions';
import type { Logger } from '@app/observability';
import type { NetworkIsolation } from './network-isolation';
import type { PluginDescription } from './sandbox-protocol';
import { SandboxProcess } from './sandbox-process';

export interface SandboxPoolOptions {
  /** The plugin folder: the only place a sandbox may read (besides its own entry script). */
  dir: string;
  script: string;
  memoryMb: number;
  /** Sandbox processes at most; each runs one call at a time. */
  size: number;
  isolation: NetworkIsolation;
  logger: Logger;
  idleMs?: number;
  describeTimeoutMs?: number;
}

type Waiter = { give: (worker: SandboxProcess) => void; fail: (err: unknown) => void; signal: AbortSignal };

/**
 * Warm sandbox processes shared by every custom function of one plugin folder. A call borrows a
 * process, and a process whose call timed out or was cancelled is killed, not returned. After a
 * plugin change the pool moves to a new generation: old processes finish their call and go.
 */
export class SandboxPool {
  private readonly idle: SandboxProcess[] = [];
  private readonly generationOf = new Map<SandboxProcess, number>();
  private readonly waiting: Waiter[] = [];
  private generation = 0;
  private starting = 0;
  private closed = false;
  private readonly lastUsed = new Map<SandboxProcess, number>();
  private readonly reaper: NodeJS.Timeout;
  readonly dir: string;
  private readonly script: string;
  private readonly memoryMb: number;
  private readonly size: number;
  private readonly isolation: NetworkIsolation;
  private readonly logger: Logger;
  private readonly idleMs: number;
  private readonly describeTimeoutMs: number;

  constructor(options: SandboxPoolOptions) {
    this.dir = options.dir;
    this.script = options.script;
    this.memoryMb = options.memoryMb;
    this.size = options.size;
    this.isolation = options.isolation;
    this.logger = options.logger;
    this.idleMs = options.idleMs ?? 60_000;
    this.describeTimeoutMs = options.describeTimeoutMs ?? 5_000;
    this.reaper = setInterval(() => this.reapIdle(), Math.min(this.idleMs, 30_000));
    this.reaper.unref();
  }

  get processes(): number {
    return this.generationOf.size;
  }

  async describe(file: string): Promise<PluginDescription> {
    const timeoutMs = this.describeTimeoutMs;
    const controller = new AbortController();
    const timer = setTimeout(
      () => controller.abort(new TimeoutError(`loading took longer than ${timeoutMs} ms`)),
      timeoutMs,
    );
    try {
      const answer = await this.withProcess(controller.signal, (p) =>
        p.request({ type: 'load', file }, { signal: controller.signal }),
      );
      return answer.type === 'loaded' ? answer.definition : {};
    } finally {
      clearTimeout(timer);
    }
  }

  async run(
    file: string,
    params: Record<string, unknown>,
    ctx: FunctionContext,
    onHttp: (request: unknown) => Promise<unknown>,
  ): Promise<unknown> {
    const context = { caller: ctx.caller, traceId: ctx.traceId, deadline: ctx.deadline };
    const answer = await this.withProcess(ctx.signal, (p) =>
      p.request({ type: 'call', file, params: { ...params }, context }, { signal: ctx.signal, onHttp }),
    );
    return answer.type === 'result' ? answer.value : undefined;
  }

  /** Starts one process ahead of the first call, so it does not pay the start-up. */
  warm(): void {
    if (this.closed || this.idle.length > 0 || this.starting > 0) return;
    this.start().then(
      (p) => this.release(p),
      (err: unknown) => this.logger.warn('could not start a sandbox process', { err }),
    );
  }

  /** Plugins changed: new calls get fresh processes with a fresh module cache. */
  recycle(): void {
    this.generation += 1;
    for (const p of this.idle.splice(0)) this.retire(p);
  }

  close(): void {
    this.closed = true;
    clearInterval(this.reaper);
    for (const p of [...this.generationOf.keys()]) this.retire(p);
    for (const w of this.waiting.splice(0)) w.fail(new AppError('unavailable', 'the sandbox pool is closed'));
  }

  private async withProcess<T>(signal: AbortSignal, work: (p: SandboxProcess) => Promise<T>): Promise<T> {
    const p = await this.acquire(signal);
    try {
      return await work(p);
    } finally {
      this.release(p);
    }
  }

  private acquire(signal: AbortSignal): Promise<SandboxProcess> {
    if (signal.aborted) return Promise.reject(signal.reason);
    if (this.closed) return Promise.reject(new AppError('unavailable', 'the sandbox pool is closed'));
    for (let idle = this.idle.pop(); idle; idle = this.idle.pop()) {
      if (idle.alive) return Promise.resolve(idle);
      this.retire(idle);
    }
    const waiting = new Promise<SandboxProcess>((give, fail) => {
      const waiter: Waiter = { give, fail, signal };
      signal.addEventListener('abort', () => this.drop(waiter, signal.reason), { once: true });
      this.waiting.push(waiter);
    });
    if (this.processes + this.starting < this.size) this.startForWaiters();
    return waiting;
  }

  private release(p: SandboxProcess): void {
    this.lastUsed.set(p, Date.now());
    if (!p.alive || this.closed || this.generationOf.get(p) !== this.generation) {
      this.retire(p);
      if (this.waiting.length > 0 && this.processes + this.starting < this.size) this.startForWaiters();
      return;
    }
    const waiter = this.waiting.shift();
    if (waiter) waiter.give(p);
    else this.idle.push(p);
  }

  private startForWaiters(): void {
    this.start().then(
      (p) => this.release(p),
      (err: unknown) => this.waiting.shift()?.fail(err),
    );
  }

  private async start(): Promise<SandboxProcess> {
    this.starting += 1;
    const generation = this.generation;
    try {
      const p = await SandboxProcess.spawn({
        script: this.script,
        dir: this.dir,
        memoryMb: this.memoryMb,
        prefix: this.isolation.prefix,
        logger: this.logger,
      });
      this.generationOf.set(p, generation);
      void p.exited.then(() => this.forget(p));
      return p;
    } finally {
      this.starting -= 1;
    }
  }

  private drop(waiter: Waiter, reason: unknown): void {
    const index = this.waiting.indexOf(waiter);
    if (index < 0) return;
    this.waiting.splice(index, 1);
    waiter.fail(reason);
  }

  private retire(p: SandboxProcess): void {
    p.kill();
    this.forget(p);
  }

  private forget(p: SandboxProcess): void {
    this.generationOf.delete(p);
    this.lastUsed.delete(p);
    const index = this.idle.indexOf(p);
    if (index >= 0) this.idle.splice(index, 1);
  }

  private reapIdle(): void {
    for (const p of [...this.idle]) {
      if (this.idle.length <= 1) return;
      if (Date.now() - (this.lastUsed.get(p) ?? 0) > this.idleMs) this.retire(p);
    }
  }
}
