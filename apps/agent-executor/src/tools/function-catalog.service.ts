import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { Bus } from '@app/bus';
import type { PlatformConfig } from '@app/config';
import { type FnCatalogReply, type FunctionDefinition, Subjects } from '@app/contracts';
import { Logger } from '@app/observability';
import { PLATFORM_CONFIG } from '@app/runtime';
import { isAllowed } from '../agents/allow-list';

const GATHER_MS = 150;
const MISS_REFRESH_INTERVAL_MS = 1_000;

/**
 * The executor's copy of every provider's function definitions (scatter-gather on `fn.catalog`,
 * deduplicated by name). Refreshed when a provider announces a change, when it is older than
 * `executor.catalog_ttl`, and (at most once a second) when a run asks for a name it lacks.
 */
@Injectable()
export class FunctionCatalogService implements OnApplicationBootstrap {
  private functions = new Map<string, FunctionDefinition>();
  private fetchedAt = 0;
  private refreshing?: Promise<void>;
  private lastMissRefresh = 0;

  constructor(
    @Inject(Bus) private readonly bus: Bus,
    @Inject(PLATFORM_CONFIG) private readonly config: PlatformConfig,
    @Inject(Logger) private readonly logger: Logger,
  ) {}

  onApplicationBootstrap(): void {
    this.bus.subscribe(Subjects.fnAnnounce, () => void this.refresh());
    void this.refresh();
  }

  async all(): Promise<Map<string, FunctionDefinition>> {
    const stale = Date.now() - this.fetchedAt > this.config.executor.catalog_ttl;
    if (this.fetchedAt === 0 || (stale && this.functions.size === 0)) await this.refresh();
    else if (stale) void this.refresh();
    return this.functions;
  }

  async find(name: string): Promise<FunctionDefinition | undefined> {
    const known = (await this.all()).get(name);
    if (known || Date.now() - this.lastMissRefresh < MISS_REFRESH_INTERVAL_MS) return known;
    this.lastMissRefresh = Date.now();
    await this.refresh();
    return this.functions.get(name);
  }

  /** The definitions an allow-list lets a run see, sorted by name so prompts are stable. */
  async allowedFor(allowList: readonly string[]): Promise<FunctionDefinition[]> {
    const all = [...(await this.all()).values()];
    return all.filter((fn) => isAllowed(allowList, fn.name)).sort((a, b) => a.name.localeCompare(b.name));
  }

  refresh(): Promise<void> {
    this.refreshing ??= this.fetch().finally(() => (this.refreshing = undefined));
    return this.refreshing;
  }

  private async fetch(): Promise<void> {
    const replies = await this.bus.gather<FnCatalogReply>(Subjects.fnCatalog, {}, GATHER_MS);
    const functions = new Map<string, FunctionDefinition>();
    for (const reply of replies) {
      for (const fn of reply?.functions ?? []) if (!functions.has(fn.name)) functions.set(fn.name, fn);
    }
    this.functions = functions;
    this.fetchedAt = Date.now();
    this.logger.debug('function catalog refreshed', { providers: replies.length, functions: functions.size });
  }
}
