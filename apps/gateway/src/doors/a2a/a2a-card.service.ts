import { Inject, Injectable } from '@nestjs/common';
import { A2A_PROTOCOL_VERSION, type AgentCard, type AgentSkill } from '@a2a-js/sdk';
import type { PlatformConfig } from '@app/config';
import { type AgentProfileView, hasScope } from '@app/contracts';
import { PLATFORM_CONFIG, platformVersion } from '@app/runtime';
import { AgentsService } from '../../agents/agents.service';
import type { Caller } from '../../chat/chat.service';
import { FunctionsService } from '../../functions/functions.service';

const MODES = ['text/plain', 'application/json'];

/**
 * The platform's agents as A2A 1.0 Agent Cards: one per agent, its JSON-RPC interface at
 * `/a2a/<agent>`, the platform's API keys as its security scheme. The public card shows one skill
 * (the agent itself); the authenticated extended card lists the functions the agent may call for
 * the caller's key.
 */
@Injectable()
export class A2aCardService {
  constructor(
    @Inject(AgentsService) private readonly agents: AgentsService,
    @Inject(FunctionsService) private readonly functions: FunctionsService,
    @Inject(PLATFORM_CONFIG) private readonly config: PlatformConfig,
  ) {}

  /** The agent the root card shows (`a2a.card_agent`); undefined when the operator shows none. */
  get publicAgent(): string | undefined {
    return this.config.a2a.card_agent || undefined;
  }

  async card(agent: string, base: string): Promise<AgentCard> {
    const profile = await this.agents.get(agent);
    return cardOf(profile, this.publicUrl(base), [agentSkill(profile)]);
  }

  async extendedCard(agent: string, base: string, caller: Caller): Promise<AgentCard> {
    const profile = await this.agents.get(agent);
    const skills = [agentSkill(profile)];
    if (hasScope(caller.scopes, 'chat')) {
      const allowed = new Set(profile.allowed_tools);
      const everything = allowed.has('*');
      for (const fn of await this.functions.list())
        if (everything || allowed.has(fn.name))
          skills.push({
            id: fn.name,
            name: fn.name,
            description: fn.description,
            tags: ['function'],
            examples: [],
            inputModes: MODES,
            outputModes: MODES,
            securityRequirements: [],
          });
    }
    return cardOf(profile, this.publicUrl(base), skills);
  }

  private publicUrl(base: string): string {
    return (this.config.gateway.public_url ?? base).replace(/\/+$/, '');
  }
}

function agentSkill(profile: AgentProfileView): AgentSkill {
  return {
    id: profile.name,
    name: profile.name,
    description: profile.description || `Ask the agent '${profile.name}'.`,
    tags: ['agent', profile.mode],
    examples: [],
    inputModes: MODES,
    outputModes: MODES,
    securityRequirements: [],
  };
}

function cardOf(profile: AgentProfileView, base: string, skills: AgentSkill[]): AgentCard {
  return {
    name: profile.name,
    description: profile.description || `The AgentChassis agent '${profile.name}'.`,
    supportedInterfaces: [
      {
        url: `${base}/a2a/${profile.name}`,
        protocolBinding: 'JSONRPC',
        tenant: '',
        protocolVersion: A2A_PROTOCOL_VERSION,
      },
    ],
    provider: { url: base, organization: 'AgentChassis' },
    version: platformVersion(),
    documentationUrl: `${base}/api/docs`,
    capabilities: { streaming: true, pushNotifications: false, extensions: [], extendedAgentCard: true },
    securitySchemes: {
      apiKey: {
        scheme: {
          $case: 'httpAuthSecurityScheme',
          value: { description: 'An AgentChassis API key', scheme: 'bearer', bearerFormat: 'ac_…' },
        },
      },
    },
    securityRequirements: [{ schemes: { apiKey: { list: [] } } }],
    defaultInputModes: MODES,
    defaultOutputModes: MODES,
    skills,
    signatures: [],
  };
}
