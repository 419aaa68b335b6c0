import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import type { PlatformConfig } from '@app/config';
import { type AgentFunction, FunctionRegistry, paramsClassFromSchema } from '@app/functions';
import { Logger } from '@app/observability';
import { PLATFORM_CONFIG } from '@app/runtime';
import { type A2aCallParams, A2aRemoteAgent } from './a2a-remote-agent';

export const A2A_GROUP = 'a2a';
const MAX_DESCRIPTION_CHARS = 1_024;

/**
 * The remote A2A agents of `a2a.agents`, mounted in the runner's registry as functions
 * `a2a_<name>` (the `a2a` group): served on `fn.exec.<name>` in the runner's queue group like
 * every other function, so an agent calls another platform's agent as it calls an MCP tool. Each
 * card is read at start (for the description); an agent unreachable then is still served, and
 * reached at its first call.
 */
@Injectable()
export class A2aAgentsService implements OnModuleInit {
  private readonly agents: A2aRemoteAgent[];
  private readonly logger: Logger;

  constructor(
    @Inject(FunctionRegistry) private readonly registry: FunctionRegistry,
    @Inject(PLATFORM_CONFIG) config: PlatformConfig,
    @Inject(Logger) logger: Logger,
  ) {
    this.logger = logger.child({ component: 'a2a' });
    this.agents = config.a2a.agents.map((agent) => new A2aRemoteAgent(agent));
  }

  async onModuleInit(): Promise<void> {
    await Promise.all(
      this.agents.map((agent) =>
        agent.connect().then(
          () => this.logger.info(`A2A agent '${agent.config.name}' connected`),
          (err: Error) =>
            this.logger.warn(`A2A agent '${agent.config.name}' not reachable yet: ${err.message}`),
        ),
      ),
    );
    for (const { name, reason } of this.registry.setGroup(A2A_GROUP, this.agents.map(functionOf)))
      this.logger.error(`A2A agent '${name}' not served: ${reason}`);
  }
}

function functionOf(agent: A2aRemoteAgent): AgentFunction {
  const card = agent.card;
  const skills = card?.skills.map((s) => s.name).join(', ');
  const about = card
    ? `${card.description}${skills ? ` Skills: ${skills}.` : ''}`
    : `The remote A2A agent '${agent.config.name}'.`;
  const fn: AgentFunction<Record<string, unknown>> = {
    name: agent.functionName,
    description: `Ask the remote agent ${card?.name ?? agent.config.name} (A2A). ${about}`.slice(
      0,
      MAX_DESCRIPTION_CHARS,
    ),
    params: paramsClassFromSchema({
      type: 'object',
      properties: {
        message: { type: 'string', description: 'What to ask or tell the agent' },
        context_id: { type: 'string', description: 'Continue this conversation (from an earlier answer)' },
        task_id: { type: 'string', description: 'Answer this task, when the agent asked for input' },
        data: { type: 'object', description: 'Structured input the agent asked for, e.g. {"approve": true}' },
      },
      required: ['message'],
    }),
    timeoutMs: agent.config.timeout,
    // a message to another agent may act: never sent twice
    idempotent: false,
    execute: (params, ctx) => agent.call(params as unknown as A2aCallParams, ctx.signal),
  };
  return fn as AgentFunction;
}
