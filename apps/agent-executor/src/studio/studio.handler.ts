import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { Bus } from '@app/bus';
import { Routes } from '@app/contracts';
import { StepMessagesService } from './step-messages.service';

/** NATS in: looking into a run — what one of its model steps saw. */
@Injectable()
export class StudioHandler implements OnApplicationBootstrap {
  constructor(
    @Inject(Bus) private readonly bus: Bus,
    @Inject(StepMessagesService) private readonly messages: StepMessagesService,
  ) {}

  onApplicationBootstrap(): void {
    this.bus.serve(Routes.agentRunStepMessages, (r) => this.messages.view(r.run_id, r.step, r.principal));
  }
}
