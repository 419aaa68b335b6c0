import { Inject, Injectable } from '@nestjs/common';
import {
  type AgentDefinition,
  AgentRuntime,
  type Functions,
  functionsWithMemory,
  type ModelClient,
  type RunIdentity,
} from '@app/agent-core';
import type { PlatformConfig } from '@app/config';
import type { ModelPrice } from '@app/contracts';
import { PLATFORM_CONFIG } from '@app/runtime';
import { type AgentProfile, modelChoiceOf, modelNameOf } from '../agents/agent-profile';
import { RunEventsPublisher } from '../events/run-events.publisher';
import { RunMetrics } from '../events/run-metrics';
import { ProfileHooksFactory } from '../hooks/profile-hooks.factory';
import type { TurnJournal } from '../journal/run-journal.store';
import { KeySpendLedger } from '../llm/key-spend.ledger';
import { LlmRegistry } from '../llm/llm-registry.service';
import { MemoryIndexService } from '../memory/memory-index.service';
import { memoryEnabled, memoryScopeOf, withMemoryFunctions } from '../memory/memory-scope';
import { BusFunctions } from '../tools/bus-functions';

/**
 * The run engine's runtime (libs/agent-core) for a profile's runs, from the executor's ports: the
 * profile's model, the functions over the bus (with the memory functions when the profile has
 * memory), the profile's hooks, the runs' journal, the events publisher for a streamed run, the
 * executor's counters, the API key's daily budget its model calls draw on, and the platform's run
 * timeout.
 */
@Injectable()
export class ExecutorRuntimeService {
  constructor(
    @Inject(PLATFORM_CONFIG) private readonly config: PlatformConfig,
    @Inject(LlmRegistry) private readonly models: LlmRegistry,
    @Inject(BusFunctions) private readonly functions: BusFunctions,
    @Inject(RunEventsPublisher) private readonly events: RunEventsPublisher,
    @Inject(RunMetrics) private readonly metrics: RunMetrics,
    @Inject(ProfileHooksFactory) private readonly hooks: ProfileHooksFactory,
    @Inject(MemoryIndexService) private readonly memory: MemoryIndexService,
    @Inject(KeySpendLedger) private readonly keySpend: KeySpendLedger,
  ) {}

  /**
   * `stream`: the run's events are published (`agent.events.<run>`), otherwise nobody hears them;
   * `journal`: the turn's own (`RunJournalStore.forTurn`).
   */
  runtimeFor(profile: AgentProfile, stream: boolean, journal: TurnJournal): AgentRuntime {
    return AgentRuntime.create({
      model: this.modelFor(profile),
      functions: this.functions,
      journal,
      hooks: this.hooks.forProfile(profile.hooks),
      ...(memoryEnabled(profile) ? { memory: this.memory } : {}),
      metrics: this.metrics,
      spend: this.keySpend,
      ...(stream ? { events: this.events } : {}),
      runTimeoutMs: this.config.executor.run_timeout,
    });
  }

  /** The functions a run of the profile is offered: the bus's, with the memory functions within its scope. */
  functionsFor(profile: AgentProfile, identity: RunIdentity): Functions {
    return functionsWithMemory(this.functions, memoryEnabled(profile) ? this.memory : undefined, profile, {
      memoryScope: memoryScopeOf(profile, identity),
      principal: identity.principal,
    });
  }

  /** The profile as the engine runs it: the platform's definition budget, the memory functions allowed. */
  definitionOf(profile: AgentProfile): AgentProfile & AgentDefinition {
    return {
      ...profile,
      function_definition_budget: this.config.executor.function_definition_budget,
      ...(memoryEnabled(profile) ? { allowed_tools: withMemoryFunctions(profile) } : {}),
    };
  }

  /** What the profile's model costs, when the platform's pricing names it. */
  priceFor(profile: AgentProfile): ModelPrice | undefined {
    return this.config.pricing[modelNameOf(profile, this.config)];
  }

  /**
   * The profile's model, chosen at its first call: an endpoint that cannot work (no key, no base
   * URL) fails that call, as a model error the run ends with, naming the setting.
   */
  modelFor(profile: AgentProfile): ModelClient {
    const choose = () => this.models.forProfile(modelChoiceOf(profile));
    return {
      name: profile.provider ?? 'platform',
      model: profile.model ?? '',
      complete: (request) => choose().complete(request),
    };
  }
}
