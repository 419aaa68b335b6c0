import { Inject, Injectable } from '@nestjs/common';
import { Metrics } from '@app/observability';
import type { PlatformConfig } from '@app/config';
import type { AgentProtocol, Usage } from '@app/contracts';
import { buildSystemPrompt, type PromptFunction } from '@app/protocol';
import { PLATFORM_CONFIG } from '@app/runtime';
import { RunEventsPublisher } from '../events/run-events.publisher';
import type { ChatMessage, CompletionResult } from '@app/llm';
import { FunctionCatalogService } from '../tools/function-catalog.service';
import type { ToolCall } from '../tools/tool-call';
import { ToolExecutorService } from '../tools/tool-executor.service';
import { ModelCallerService } from '../model/model-caller.service';
import { ClientToolPauseService } from '../client-tools/client-tool-pause.service';
import { modelFailure } from './model-failure';
import { assistantTurn, nativeTools, readReply, repairTurn, resultTurns } from './reply-reader';
import { answered, ended, limitBeforeStep, type RunOutcome } from './run-endings';
import type { RunState } from './run-state';

/** Consecutive unreadable replies a run survives: the first gets a repair round, the second ends it. */
const REPAIR_ROUNDS = 1;

/**
 * The ReAct loop: the model sees a system prompt listing only the functions its profile allows,
 * replies, the reply is read in the profile's protocol, calls are executed (refusals reported
 * back), results go back, until a final answer or a limit ends the run.
 */
@Injectable()
export class RunLoopService {
  constructor(
    @Inject(ModelCallerService) private readonly model: ModelCallerService,
    @Inject(ToolExecutorService) private readonly tools: ToolExecutorService,
    @Inject(FunctionCatalogService) private readonly catalog: FunctionCatalogService,
    @Inject(RunEventsPublisher) private readonly events: RunEventsPublisher,
    @Inject(PLATFORM_CONFIG) private readonly config: PlatformConfig,
    @Inject(ClientToolPauseService) private readonly clientCalls: ClientToolPauseService,
  ) {}

  async run(run: RunState, conversation: ChatMessage[]): Promise<RunOutcome> {
    const { protocol } = run.profile;
    const functions = await this.catalog.allowedFor(run.profile.allowed_tools);
    const offered = [...functions, ...(run.clientTools?.functions() ?? [])];
    const messages: ChatMessage[] = [this.systemTurn(run, offered), ...conversation];
    const tools = protocol === 'native' && functions.length > 0 ? nativeTools(functions) : undefined;
    let unreadable = 0;
    for (;;) {
      const limit = limitBeforeStep(run, run.profile.max_steps);
      if (limit) return ended(run, limit);
      run.step += 1;
      const started = performance.now();
      let result: CompletionResult;
      try {
        // Until the reply is complete nobody knows whether it ends in calls (its text is then a
        // thought), so a step's answer is published once, after it has been read.
        result = await this.model.complete(run, messages, { tools, deltas: 'none' });
      } catch (err) {
        const failure = modelFailure(run, err, started);
        if (failure.outcome) return failure.outcome;
        if (++unreadable > REPAIR_ROUNDS) return ended(run, 'parse_error', failure.error);
        messages.push(repairTurn(failure.repair));
        continue;
      }
      const tokens = { ...result.usage };
      const reply = readReply(result, protocol);
      if (reply.kind === 'invalid') {
        Metrics.parseFailures().inc({ protocol });
        run.trace.push({
          step: run.step,
          kind: 'parse_error',
          error: reply.error,
          elapsed_ms: result.elapsedMs,
          tokens,
        });
        if (++unreadable > REPAIR_ROUNDS) return ended(run, 'parse_error', reply.error);
        messages.push(assistantTurn(result, protocol), repairTurn(reply.error));
        continue;
      }
      unreadable = 0;
      if (reply.kind === 'final') {
        run.trace.push({ step: run.step, kind: 'final', elapsed_ms: result.elapsedMs, tokens });
        if (reply.answer) this.events.emit(run, 'delta', { step: run.step, text: reply.answer });
        return answered(reply.answer);
      }
      // The tokens are spent; calls whose results nobody will read are not worth their side effects.
      if (run.overBudget()) return ended(run, 'budget');
      if (run.clientTools?.calledIn(reply.calls))
        return this.clientCalls.pause(run, run.clientTools, result, reply.calls, reply.thought, tokens);
      const stop = await this.act(run, messages, result, reply.calls, reply.thought, tokens);
      if (stop) return stop;
    }
  }

  private async act(
    run: RunState,
    messages: ChatMessage[],
    result: CompletionResult,
    calls: ToolCall[],
    thought: string | undefined,
    tokens: Usage,
  ): Promise<RunOutcome | undefined> {
    const { protocol } = run.profile;
    if (thought) this.events.emit(run, 'thought', { step: run.step, text: thought });
    messages.push(assistantTurn(result, protocol));
    const batch = await this.tools.executeAll(calls, run);
    batch.outcomes.forEach((outcome, i) =>
      run.trace.push({
        step: run.step,
        kind: 'action',
        ...(i === 0 && thought ? { thought } : {}),
        action: { tool: outcome.call.name, args: outcome.args },
        observation: outcome.observation,
        ...(outcome.error ? { error: outcome.error.message } : {}),
        elapsed_ms: outcome.elapsedMs,
        ...(i === 0 ? { tokens } : {}),
      }),
    );
    messages.push(...resultTurns(batch.outcomes, protocol));
    if (run.abortReason) return ended(run, run.abortReason);
    if (batch.limitReached) return ended(run, 'max_tool_calls');
    return undefined;
  }

  private systemTurn(run: RunState, functions: PromptFunction[]): ChatMessage {
    const protocol: AgentProtocol = run.profile.protocol;
    return {
      role: 'system',
      content: buildSystemPrompt({
        functions,
        protocol,
        instructions: run.profile.system_prompt,
        definitionBudget: this.config.executor.function_definition_budget,
        model: run.profile.model,
      }),
    };
  }
}
