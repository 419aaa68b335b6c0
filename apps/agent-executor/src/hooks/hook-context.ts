import type {
  CompletionRequest,
  CompletionResult,
  RunOutcome,
  RunState,
  ToolCall,
  ToolOutcome,
} from '@app/agent-core';
import type { HookContext, HookEvent, PlanStep } from '@app/contracts';

/** The context every event carries: the run, its agent, where it stands. */
export function runContext(run: RunState, event: HookEvent): HookContext {
  const planStep = run.plan?.steps.find((step) => step.status === 'running');
  return {
    event,
    run_id: run.runId,
    session_id: run.identity.sessionId,
    agent: run.definition.name,
    turn_index: run.step,
    ...(planStep ? { plan_step_index: planStep.index } : {}),
  };
}

export function beforeLlmContext(run: RunState, request: CompletionRequest): HookContext {
  return {
    ...runContext(run, 'before_llm'),
    model: { name: request.model ?? '', messages: request.messages.length },
  };
}

export function afterLlmContext(run: RunState, result: CompletionResult): HookContext {
  const { prompt_tokens, completion_tokens } = result.usage;
  return {
    ...runContext(run, 'after_llm'),
    usage: { prompt_tokens, completion_tokens, elapsed_ms: result.elapsedMs },
  };
}

export function beforeToolContext(run: RunState, call: ToolCall): HookContext {
  return { ...runContext(run, 'before_tool'), tool_call: { name: call.name, arguments: call.params } };
}

export function afterToolContext(run: RunState, outcome: ToolOutcome): HookContext {
  return {
    ...runContext(run, 'after_tool'),
    tool_call: { name: outcome.call.name, arguments: outcome.args },
    tool_result: {
      status: outcome.status,
      observation: outcome.observation,
      ...(outcome.error ? { error: outcome.error.message } : {}),
      elapsed_ms: outcome.elapsedMs,
    },
  };
}

export function planStepContext(run: RunState, step: PlanStep): HookContext {
  return {
    ...runContext(run, 'on_plan_step_complete'),
    plan_step_index: step.index,
    plan_step: {
      index: step.index,
      tool: step.tool,
      status: step.status,
      ...(step.error ? { error: step.error } : {}),
    },
  };
}

export function turnEndContext(run: RunState, outcome: RunOutcome): HookContext {
  return {
    ...runContext(run, 'on_turn_end'),
    finish_reason: outcome.finishReason,
    usage: { ...run.usage },
  };
}
