import { Inject, Injectable } from '@nestjs/common';
import type { ClientToolCall, TraceStep, Usage } from '@app/contracts';
import { RunEventsPublisher } from '../events/run-events.publisher';
import type { CompletionResult } from '@app/llm';
import { ended, type RunOutcome } from '../runs/run-endings';
import type { RunState } from '../runs/run-state';
import type { ToolCall, ToolOutcome } from '../tools/tool-call';
import { ToolExecutorService } from '../tools/tool-executor.service';
import type { ClientToolSet } from './client-tool-set';

/**
 * A model reply that calls a client tool ends the run with `client_tool_calls`. The platform calls
 * of the same reply run first; every call of the reply is kept, in order, as the last step of the
 * run's trace (platform calls with their observation, client calls with their id), so the next
 * turn can hand the model all the results of that reply at once, as the protocol expects.
 * The session keeps the model's reply as written, so the conversation replays as it happened.
 */
@Injectable()
export class ClientToolPauseService {
  constructor(
    @Inject(ToolExecutorService) private readonly tools: ToolExecutorService,
    @Inject(RunEventsPublisher) private readonly events: RunEventsPublisher,
  ) {}

  async pause(
    run: RunState,
    clientTools: ClientToolSet,
    result: CompletionResult,
    calls: ToolCall[],
    thought: string | undefined,
    tokens: Usage,
  ): Promise<RunOutcome> {
    if (thought) this.events.emit(run, 'thought', { step: run.step, text: thought });
    const platformCalls = calls.filter((call) => !clientTools.has(call.name));
    const executed =
      platformCalls.length > 0 ? (await this.tools.executeAll(platformCalls, run)).outcomes : [];
    if (run.abortReason) return ended(run, run.abortReason);
    const pending: ClientToolCall[] = [];
    calls.forEach((call, index) => {
      const opening: Partial<TraceStep> = index === 0 ? { tokens, ...(thought ? { thought } : {}) } : {};
      if (clientTools.has(call.name)) {
        const asked = clientTools.pendingCall(call, run.runId, index);
        pending.push(asked);
        run.trace.push(clientStep(run.step, asked, opening));
      } else run.trace.push(platformStep(run.step, executed.shift() as ToolOutcome, opening));
    });
    return {
      finishReason: 'client_tool_calls',
      reply: thought ?? '',
      transcript: result.text,
      clientCalls: pending,
    };
  }
}

function clientStep(step: number, call: ClientToolCall, opening: Partial<TraceStep>): TraceStep {
  return {
    step,
    kind: 'client_tool_call',
    ...opening,
    action: { tool: call.name, args: call.arguments },
    call_id: call.id,
    elapsed_ms: 0,
  };
}

function platformStep(step: number, outcome: ToolOutcome, opening: Partial<TraceStep>): TraceStep {
  return {
    step,
    kind: 'action',
    ...opening,
    action: { tool: outcome.call.name, args: outcome.args },
    observation: outcome.observation,
    ...(outcome.error ? { error: outcome.error.message } : {}),
    elapsed_ms: outcome.elapsedMs,
  };
}
