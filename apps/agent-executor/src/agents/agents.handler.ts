import { Inject, Injectable } from '@nestjs/common';
import { Bus } from '@app/bus';
import { answer, type Answer, BusHandler, hear } from '@app/runtime';
import { Events, Routes } from '@app/contracts';
import { AgentProfilesService } from './agent-profiles.service';

/** NATS in: list, show, create, replace and delete agent profiles; another executor's changes heard. */
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
      answer(Routes.agentProfileUpdate, (r) => this.profiles.update(r.profile)),
      answer(Routes.agentProfileDelete, (r) => this.profiles.delete(r.name)),
      hear(Events.agentProfileChanged, ({ name }) => this.profiles.forget(name)),
    ];
  }
}
