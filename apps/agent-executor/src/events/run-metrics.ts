import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import type { RunMetrics as EngineMetrics, RunState } from '@app/agent-core';
import type { PlatformConfig } from '@app/config';
import { AGENT_PROTOCOLS, FINISH_REASONS } from '@app/contracts';
import { initialiseCounter, Metrics } from '@app/observability';
import { PLATFORM_CONFIG } from '@app/runtime';
import { AgentProfilesService } from '../agents/agent-profiles.service';
import { modelNameOf } from '../agents/agent-profile';

const TEXT_PROTOCOLS = AGENT_PROTOCOLS.filter((protocol) => protocol !== 'native');

/**
 * The run engine's counters. Exports them at 0 before the first run, for every label value known
 * at start: `ac_runs_total` for each configured agent and finish reason, parse failures for each
 * text protocol, and the tokens saved. Agents created over REST appear with their first run.
 */
@Injectable()
export class RunMetrics implements OnModuleInit, EngineMetrics {
  constructor(
    @Inject(AgentProfilesService) private readonly profiles: AgentProfilesService,
    @Inject(PLATFORM_CONFIG) private readonly config: PlatformConfig,
  ) {}

  onModuleInit(): void {
    const agents = this.profiles.configuredNames();
    initialiseCounter(
      Metrics.runs(),
      agents.flatMap((agent) => FINISH_REASONS.map((finish_reason) => ({ agent, finish_reason }))),
    );
    initialiseCounter(
      Metrics.parseFailures(),
      TEXT_PROTOCOLS.map((protocol) => ({ protocol })),
    );
    initialiseCounter(Metrics.tokensSaved(), [{}]);
  }

  parseFailure(protocol: string): void {
    Metrics.parseFailures().inc({ protocol });
  }

  tokensSaved(tokens: number): void {
    Metrics.tokensSaved().inc(tokens);
  }

  modelCost(run: RunState, usd: number): void {
    Metrics.llmCost().inc(
      { agent: run.definition.name, model: modelNameOf(run.definition, this.config) },
      usd,
    );
  }
}
