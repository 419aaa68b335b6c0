import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { Bus } from '@app/bus';
import type { PlatformConfig } from '@app/config';
import type { FunctionDefinition } from '@app/contracts';
import { FunctionCatalog } from '@app/functions';
import { PLATFORM_CONFIG } from '@app/runtime';

/**
 * The executor's view of the platform's one function catalogue (`FunctionCatalog`, shared with the
 * gateway and the scheduler), refreshed when a provider announces a change. Its TTL is the
 * operator's setting `executor.catalog_ttl` (AGENT_CATALOG_TTL): every run reads the catalogue,
 * so a deployment may trade how soon a silently dead provider drops out for fewer gatherings.
 */
@Injectable()
export class FunctionCatalogService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly catalog: FunctionCatalog;

  constructor(@Inject(Bus) bus: Bus, @Inject(PLATFORM_CONFIG) config: PlatformConfig) {
    this.catalog = new FunctionCatalog(bus, { ttlMs: config.executor.catalog_ttl });
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

  list(): Promise<FunctionDefinition[]> {
    return this.catalog.list();
  }
}
