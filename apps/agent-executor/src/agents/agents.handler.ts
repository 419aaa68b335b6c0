import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { Bus } from '@app/bus';
import { Events, Routes } from '@app/contracts';
import { AgentProfilesService } from './agent-profiles.service';

/** NATS in: list, show, create, replace and delete agent profiles; another executor's changes heard. */
@Injectable()
export class AgentsHandler implements OnApplicationBootstrap {
  constructor(
    @Inject(Bus) private readonly bus: Bus,
    @Inject(AgentProfilesService) private readonly profiles: AgentProfilesService,
  ) {}

  onApplicationBootstrap(): void {
    this.bus.serve(Routes.agentProfileList, () => this.profiles.list());
    this.bus.serve(Routes.agentProfileGet, (r) => this.profiles.view(r.name));
    this.bus.serve(Routes.agentProfileCreate, (r) => this.profiles.create(r.profile, r.principal));
    this.bus.serve(Routes.agentProfileUpdate, (r) => this.profiles.update(r.profile));
    this.bus.serve(Routes.agentProfileDelete, (r) => this.profiles.delete(r.name));
    this.bus.subscribe(Events.agentProfileChanged, ({ name }) => this.profiles.forget(name));
  }
}
