import { type FSWatcher, watch } from 'node:fs';
import { relative } from 'node:path';
import { Inject, Injectable, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { type AgentFunction, FunctionRegistry } from '@app/functions';
import { Logger } from '@app/observability';
import { coalesced } from '@app/retry';
import { SandboxPool } from '../sandbox/sandbox-pool';
import { HTTP_BRIDGE, type HttpBridge } from '../functions.tokens';
import { customFunction } from './custom-function';
import { scanPlugins } from './plugin-scan';
import { locateSyntaxError } from './syntax-location';

const DEBOUNCE_MS = 100;
const POLL_MS = 2_000;

/**
 * Custom functions from the plugin folder: loaded at start and again whenever the folder changes
 * (a watcher for speed, a poll for folders a watcher misses, such as a Kubernetes ConfigMap).
 * A plugin that fails to load is logged and left out; it never stops the runner.
 */
@Injectable()
export class PluginLoaderService implements OnModuleInit, OnApplicationShutdown {
  private fingerprint?: string;
  private watcher?: FSWatcher;
  private poller?: NodeJS.Timeout;
  private debounce?: NodeJS.Timeout;
  private closed = false;

  constructor(
    @Inject(FunctionRegistry) private readonly registry: FunctionRegistry,
    @Inject(SandboxPool) private readonly pool: SandboxPool,
    @Inject(HTTP_BRIDGE) private readonly http: HttpBridge,
    @Inject(Logger) private readonly logger: Logger,
  ) {}

  get dir(): string {
    return this.pool.dir;
  }

  async onModuleInit(): Promise<void> {
    await this.reload();
    this.poller = setInterval(() => void this.reload(), POLL_MS);
    this.poller.unref();
  }

  onApplicationShutdown(): void {
    this.closed = true;
    clearInterval(this.poller);
    clearTimeout(this.debounce);
    this.watcher?.close();
    this.pool.close();
  }

  /** Rescans the folder; runs one at a time, and once more if asked while running. */
  readonly reload = coalesced(() =>
    this.loadIfChanged().catch((err: unknown) =>
      this.logger.error('custom functions could not be reloaded', { err }),
    ),
  );

  private async loadIfChanged(): Promise<void> {
    if (this.closed) return;
    const scan = await scanPlugins(this.dir);
    this.watchIfPossible(scan.exists);
    if (scan.fingerprint === this.fingerprint) return;
    const first = this.fingerprint === undefined;
    this.fingerprint = scan.fingerprint;
    if (!scan.exists)
      this.logger.info(`no custom functions: the folder ${this.dir} does not exist (functions.dir)`);
    this.pool.recycle();
    const fns = await this.describeAll(scan.files);
    for (const { name, reason } of this.registry.setGroup('custom', fns))
      this.logger.error(`custom function '${name}' not loaded: ${reason}`);
    if (scan.exists)
      this.logger.info(`custom functions ${first ? 'loaded' : 'reloaded'} from ${this.dir}`, {
        functions: fns.map((f) => f.name),
      });
    if (fns.length > 0) this.pool.warm();
  }

  private async describeAll(files: string[]): Promise<AgentFunction[]> {
    const fns: AgentFunction[] = [];
    for (const file of files) {
      try {
        const declared = await this.pool.describe(file);
        fns.push(
          customFunction(declared, file, (f, params, ctx) =>
            this.pool.run(f, params, ctx, (req) => this.http(req, ctx)),
          ),
        );
      } catch (err) {
        const name = relative(this.dir, file);
        const failure = (err as Error).message;
        const at = await locateSyntaxError(file, failure);
        const where = at ? `${name}:${at.line}:${at.column}: ` : '';
        this.logger.error(`custom function file ${name} not loaded: ${where}${failure.split('\n')[0]}`);
      }
    }
    return fns as AgentFunction[];
  }

  private watchIfPossible(exists: boolean): void {
    if (!exists && this.watcher) {
      this.watcher.close();
      this.watcher = undefined;
    }
    if (!exists || this.watcher) return;
    try {
      this.watcher = watch(this.dir, { recursive: true }, () => this.soon());
      this.watcher.on('error', () => {
        this.watcher?.close();
        this.watcher = undefined;
      });
    } catch {
      // the poll still notices changes
    }
  }

  private soon(): void {
    clearTimeout(this.debounce);
    this.debounce = setTimeout(() => void this.reload(), DEBOUNCE_MS);
  }
}
