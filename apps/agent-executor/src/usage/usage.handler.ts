import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { Bus } from '@app/bus';
import { Routes } from '@app/contracts';
import { UsageService } from './usage.service';

/** NATS in: runs, tokens, cost and latency over a window. */
@Injectable()
export class UsageHandler implements OnApplicationBootstrap {
  constructor(
    @Inject(Bus) private readonly bus: Bus,
    @Inject(UsageService) private readonly usage: UsageService,
  ) {}

  onApplicationBootstrap(): void {
    this.bus.serve(Routes.agentUsageStats, (r) => this.usage.stats(r));
  }
}
