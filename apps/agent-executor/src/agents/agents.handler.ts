import { Inject, Injectable } from '@nestjs/common';
import { Bus } from '@app/bus';
import { answer, type Answer, BusHandler } from '@app/runtime';
import { Routes } from '@app/contracts';
import { AgentProfilesService } from './agent-profiles.service';

/** NATS in: list, show and create agent profiles. */
@Injectable()
export class AgentsHandler extends BusHandler {
  constructor(
    @Inject(Bus) protected readonly bus: Bus,
    @Inject(AgentProfilesService) private readonly profiles: AgentProfilesService,
  ) {
    super();
  }

  protected answers(): Answer[] {
    return [
      answer(Routes.agentProfileList, () => this.profiles.list()),
      answer(Routes.agentProfileGet, (r) => this.profiles.view(r.name)),
      answer(Routes.agentProfileCreate, (r) => this.profiles.create(r.profile, r.principal)),
    ];
  }
}
