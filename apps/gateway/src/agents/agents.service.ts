import { Inject, Injectable } from '@nestjs/common';
import { Bus } from '@app/bus';
import {
  type AgentProfileCreateRequest,
  type AgentProfileFields,
  type AgentProfileView,
  Subjects,
} from '@app/contracts';

const TIMEOUT_MS = 5_000;

/** Agent profiles, kept by the executors. */
@Injectable()
export class AgentsService {
  constructor(@Inject(Bus) private readonly bus: Bus) {}

  list(): Promise<AgentProfileView[]> {
    return this.bus.request<AgentProfileView[]>(
      Subjects.agentProfileList,
      {},
      {
        timeoutMs: TIMEOUT_MS,
        retryOnReconnect: true,
      },
    );
  }

  get(name: string): Promise<AgentProfileView> {
    return this.bus.request<AgentProfileView>(
      Subjects.agentProfileGet,
      { name },
      {
        timeoutMs: TIMEOUT_MS,
        retryOnReconnect: true,
      },
    );
  }

  /** The creating key's principal owns the profile. */
  create(profile: AgentProfileFields, principal: string): Promise<AgentProfileView> {
    const request: AgentProfileCreateRequest = { profile, ...(principal ? { principal } : {}) };
    return this.bus.request<AgentProfileView>(Subjects.agentProfileCreate, request, {
      timeoutMs: TIMEOUT_MS,
    });
  }
}
