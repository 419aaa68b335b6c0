import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { Bus } from '@app/bus';
import { Routes } from '@app/contracts';
import { RunForkService } from './run-fork.service';
import { StepMessagesService } from './step-messages.service';

/** NATS in: looking into a run (what one of its model steps saw) and trying it again (a fork). */
@Injectable()
export class StudioHandler implements OnApplicationBootstrap {
  constructor(
    @Inject(Bus) private readonly bus: Bus,
    @Inject(StepMessagesService) private readonly messages: StepMessagesService,
    @Inject(RunForkService) private readonly forks: RunForkService,
  ) {}

  onApplicationBootstrap(): void {
    this.bus.serve(Routes.agentRunStepMessages, (r) => this.messages.view(r.run_id, r.step, r.principal));
    this.bus.serve(Routes.agentRunFork, (r) => this.forks.fork(r));
  }
}
