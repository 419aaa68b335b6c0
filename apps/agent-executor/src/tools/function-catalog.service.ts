import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { Bus } from '@app/bus';
import type { PlatformConfig } from '@app/config';
import type { FunctionDefinition } from '@app/contracts';
import { FunctionCatalog } from '@app/functions';
import { PLATFORM_CONFIG } from '@app/runtime';

const GATHER_MS = 150;

/**
 * The executor's view of the platform's one function catalogue (`FunctionCatalog`, shared with the
 * gateway and the scheduler), cached for `executor.catalog_ttl` and refreshed when a provider
 * announces a change.
 */
@Injectable()
export class FunctionCatalogService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly catalog: FunctionCatalog;

  constructor(@Inject(Bus) bus: Bus, @Inject(PLATFORM_CONFIG) config: PlatformConfig) {
    this.catalog = new FunctionCatalog(bus, { gatherMs: GATHER_MS, ttlMs: config.executor.catalog_ttl });
  }

  onApplicationBootstrap(): void {
    this.catalog.start();
    void this.catalog.refresh().catch(() => undefined);
  }

  onApplicationShutdown(): void {
    this.catalog.stop();
  }

  all(): Promise<ReadonlyMap<string, FunctionDefinition>> {
    return this.catalog.byName();
  }

  find(name: string): Promise<FunctionDefinition | undefined> {
    return this.catalog.get(name);
  }

  /**
   * Every definition, in name order so prompts are stable. An empty catalogue is gathered again
   * before a run is told it has no functions: right after a restart the providers may not have
   * answered the first gathering yet.
   */
  async list(): Promise<FunctionDefinition[]> {
    const all = await this.catalog.list();
    return all.length > 0 ? all : [...(await this.catalog.refresh()).values()];
  }
}
