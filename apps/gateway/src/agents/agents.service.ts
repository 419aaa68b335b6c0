import { Inject, Injectable } from '@nestjs/common';
import { Bus } from '@app/bus';
import { type AgentProfileFields, type AgentProfileView, Routes } from '@app/contracts';

/** Agent profiles, kept by the executors. */
@Injectable()
export class AgentsService {
  constructor(@Inject(Bus) private readonly bus: Bus) {}

  list(): Promise<AgentProfileView[]> {
    return this.bus.request(Routes.agentProfileList);
  }

  get(name: string): Promise<AgentProfileView> {
    return this.bus.request(Routes.agentProfileGet, { name });
  }

  /** The creating key's principal owns the profile. */
  create(profile: AgentProfileFields, principal: string): Promise<AgentProfileView> {
    return this.bus.request(Routes.agentProfileCreate, { profile, ...(principal ? { principal } : {}) });
  }

  /** Replaces the stored profile of `profile.name` (an admin's change; `principal` is recorded). */
  update(profile: AgentProfileFields, principal: string): Promise<AgentProfileView> {
    return this.bus.request(Routes.agentProfileUpdate, { profile, ...(principal ? { principal } : {}) });
  }

  async delete(name: string, principal: string): Promise<void> {
    await this.bus.request(Routes.agentProfileDelete, { name, ...(principal ? { principal } : {}) });
  }
}
