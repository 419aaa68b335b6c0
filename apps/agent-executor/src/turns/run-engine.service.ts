import { Inject, Injectable } from '@nestjs/common';
import {
  type ChatMessage,
  type FunctionCaller,
  JSON_PLAN_PARSER,
  MemoryFunctionCaller,
  type ModelClient,
  type PriorProgress,
  PromptSet,
  type RunContext,
  type RunOutcome,
  runStrategy,
} from '@app/agent-core';
import type { PlatformConfig } from '@app/config';
import type { ModelPrice } from '@app/contracts';
import { PLATFORM_CONFIG } from '@app/runtime';
import { type AgentProfile, modelChoiceOf, modelNameOf } from '../agents/agent-profile';
import { RunEventsPublisher } from '../events/run-events.publisher';
import { ExecutorRun, type ExecutorRunIdentity } from './executor-run';
import { RunMetrics } from '../events/run-metrics';
import { BusFunctionCaller } from '../tools/bus-function.caller';
import { ProfileHooksFactory } from '../hooks/profile-hooks.factory';
import { LlmRegistry } from '../llm/llm-registry.service';
import { KeySpendLedger } from '../llm/key-spend.ledger';
import { RunJournalStore } from '../journal/run-journal.store';
import { MemoryIndexService } from '../memory/memory-index.service';
import { memoryEnabled, memoryScopeOf, withMemoryFunctions } from '../memory/memory-scope';

/**
 * The executor's side of the run engine (libs/agent-core): a run's state with the platform's
 * limits, and its ports: the profile's model, the functions over the bus (with the run's memory
 * when its profile has one), the profile's hooks, the run's journal, the events publisher, the
 * executor's counters.
 */
@Injectable()
export class RunEngineService {
  constructor(
    @Inject(PLATFORM_CONFIG) private readonly config: PlatformConfig,
    @Inject(LlmRegistry) private readonly models: LlmRegistry,
    @Inject(BusFunctionCaller) private readonly functions: BusFunctionCaller,
    @Inject(RunEventsPublisher) private readonly events: RunEventsPublisher,
    @Inject(RunJournalStore) private readonly journal: RunJournalStore,
    @Inject(RunMetrics) private readonly metrics: RunMetrics,
    @Inject(ProfileHooksFactory) private readonly hooks: ProfileHooksFactory,
    @Inject(MemoryIndexService) private readonly memory: MemoryIndexService,
    @Inject(KeySpendLedger) private readonly keySpend: KeySpendLedger,
  ) {}

  /** A run of `profile`; `prior`: a plan held for approval, taken up again. */
  newRun(identity: ExecutorRunIdentity, profile: AgentProfile, prior?: PriorProgress): ExecutorRun {
    const definition = {
      ...profile,
      function_definition_budget: this.config.executor.function_definition_budget,
      ...(memoryEnabled(profile) ? { allowed_tools: withMemoryFunctions(profile) } : {}),
    };
    const run = new ExecutorRun(identity, definition, {
      timeoutMs: this.timeoutFor(profile),
      events: this.events,
      prior,
      price: this.priceFor(profile),
    });
    run.hooks = this.hooks.forProfile(profile.hooks);
    return run;
  }

  /** What the profile's model costs, when the platform's pricing names it. */
  priceFor(profile: AgentProfile): ModelPrice | undefined {
    return this.config.pricing[modelNameOf(profile, this.config)];
  }

  /** The overall deadline: the profile's, never past the platform's (the gateway waits that long). */
  timeoutFor(profile: AgentProfile): number {
    return Math.min(profile.run_timeout ?? Number.POSITIVE_INFINITY, this.config.executor.run_timeout);
  }

  contextFor(run: ExecutorRun): RunContext {
    return {
      run,
      model: this.modelFor(run.profile),
      functions: this.functionsFor(run),
      prompts: new PromptSet(run.profile),
      hooks: run.hooks,
      store: this.journal,
      metrics: this.metrics,
      spend: this.keySpend,
      clientTools: run.clientTools,
      inbox: run.inbox,
    };
  }

  /** The bus's functions; with the profile's memory, `memory_*` answered here within the run's scope. */
  private functionsFor(run: ExecutorRun): FunctionCaller {
    if (!memoryEnabled(run.profile)) return this.functions;
    return new MemoryFunctionCaller(this.functions, this.memory, memoryScopeOf(run.profile, run.identity));
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

  /**
   * The turn's work, once its hooks know it started: ReAct, a new plan, or the plan the run holds.
   * A hook that stops the run throws; the run frame ends the run with it.
   */
  async work(ctx: RunContext, conversation: ChatMessage[]): Promise<RunOutcome> {
    await ctx.hooks?.onTurnStart?.(ctx.run);
    return runStrategy(ctx, conversation, JSON_PLAN_PARSER);
  }
}
