import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { Bus } from '@app/bus';
import { Routes } from '@app/contracts';
import { MemoryService } from './memory.service';

/** NATS in: search and forget a caller's long-term memory. */
@Injectable()
export class MemoryHandler implements OnApplicationBootstrap {
  constructor(
    @Inject(Bus) private readonly bus: Bus,
    @Inject(MemoryService) private readonly memory: MemoryService,
  ) {}

  onApplicationBootstrap(): void {
    this.bus.serve(Routes.agentMemorySearch, ({ principal, ...query }) =>
      this.memory.search(query, principal),
    );
    this.bus.serve(Routes.agentMemoryForget, ({ principal, ...query }) =>
      this.memory.forget(query, principal),
    );
  }
}
