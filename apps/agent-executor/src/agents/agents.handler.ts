import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { Bus } from '@app/bus';
import { AgentNameRequest, AgentProfileCreateRequest, parseDto, QueueGroups, Subjects } from '@app/contracts';
import { AgentProfilesService } from './agent-profiles.service';

/** NATS in: list, show and create agent profiles. */
@Injectable()
export class AgentsHandler implements OnApplicationBootstrap {
  constructor(
    @Inject(Bus) private readonly bus: Bus,
    @Inject(AgentProfilesService) private readonly profiles: AgentProfilesService,
  ) {}

  onApplicationBootstrap(): void {
    const queue = QueueGroups.executor;
    this.bus.serve(Subjects.agentProfileList, () => this.profiles.list(), { queue });
    this.bus.serve(
      Subjects.agentProfileGet,
      (data) => this.profiles.view(parseDto(AgentNameRequest, data).name),
      { queue },
    );
    this.bus.serve(
      Subjects.agentProfileCreate,
      (data) => {
        const request = parseDto(AgentProfileCreateRequest, data, 'agent profile');
        return this.profiles.create(request.profile, request.principal);
      },
      { queue },
    );
  }
}
