import { Inject, Injectable } from '@nestjs/common';
import { Bus } from '@app/bus';
import { answer, type Answer, BusHandler } from '@app/runtime';
import { Routes } from '@app/contracts';
import { MemoryService } from './memory.service';

/** NATS in: search and forget a caller's long-term memory. */
@Injectable()
export class MemoryHandler extends BusHandler {
  constructor(
    @Inject(Bus) protected readonly bus: Bus,
    @Inject(MemoryService) private readonly memory: MemoryService,
  ) {
    super();
  }

  protected answers(): Answer[] {
    return [
      answer(Routes.agentMemorySearch, ({ principal, ...query }) => this.memory.search(query, principal)),
      answer(Routes.agentMemoryForget, ({ principal, ...query }) => this.memory.forget(query, principal)),
    ];
  }
}
