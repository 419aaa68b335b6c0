import {
  callerOf,
  type CompletionRequest,
  type CompletionResult,
  HookFailed,
  type Hooks,
  type RunOutcome,
  type RunState,
  type ToolCall,
  type ToolDecision,
  type ToolOutcome,
} from '@app/agent-core';
import type { HookContext, HookEvent, PlanStep, ResolvedHook } from '@app/contracts';
import {
  afterLlmContext,
  afterToolContext,
  beforeLlmContext,
  beforeToolContext,
  planStepContext,
  runContext,
  turnEndContext,
} from './hook-context';
import { toolDecisionOf } from './hook-decision';
import type { HookCallRecord } from './hook-record';
import type { HookTarget } from './hook-target';

export interface BoundHook {
  spec: ResolvedHook;
  target: HookTarget;
}

export type HookRecorder = (run: RunState, record: HookCallRecord) => void;

type Called<T> = { ok: true; value: T } | { ok: false; error: string };

/**
 * A profile's hooks as the core's `Hooks` port. The hooks of an event run one after another, in
 * the profile's order, each within its own timeout. A failed hook (error, timeout, a reply that
 * makes no sense) is recorded; `fail_open` carries on, `fail_closed` denies the call (before_tool)
 * or stops the run with `hook_failed` (any other event).
 */
export class ProfileHooks implements Hooks {
  constructor(
    private readonly hooks: readonly BoundHook[],
    private readonly record: HookRecorder,
  ) {}

  onTurnStart(run: RunState): Promise<void> {
    return this.notify(run, runContext(run, 'on_turn_start'));
  }

  beforeLlm(run: RunState, request: CompletionRequest): Promise<void> {
    return this.notify(run, beforeLlmContext(run, request));
  }

  afterLlm(run: RunState, result: CompletionResult): Promise<void> {
    return this.notify(run, afterLlmContext(run, result));
  }

  afterTool(run: RunState, outcome: ToolOutcome): Promise<void> {
    return this.notify(run, afterToolContext(run, outcome));
  }

  onPlanStepComplete(run: RunState, step: PlanStep): Promise<void> {
    return this.notify(run, planStepContext(run, step));
  }

  onTurnEnd(run: RunState, outcome: RunOutcome): Promise<void> {
    return this.notify(run, turnEndContext(run, outcome));
  }

  /** Each hook sees the arguments the previous one left; the first deny ends the round. */
  async beforeTool(run: RunState, call: ToolCall): Promise<ToolDecision | void> {
    let params = call.params;
    let rewritten = false;
    for (const hook of this.of('before_tool')) {
      const context = beforeToolContext(run, { ...call, params });
      const called = await this.invoke(run, hook, context, toolDecisionOf);
      if (!called.ok) {
        if (hook.spec.policy === 'fail_open') continue;
        return {
          action: 'deny',
          reason: `a before_tool hook failed (${called.error}); the call was not made`,
        };
      }
      const decision = called.value;
      if (decision.action === 'deny') return decision;
      if (decision.action === 'rewrite') {
        params = decision.args;
        rewritten = true;
      }
    }
    return rewritten ? { action: 'rewrite', args: params } : undefined;
  }

  private async notify(run: RunState, context: HookContext): Promise<void> {
    for (const hook of this.of(context.event)) {
      const called = await this.invoke(run, hook, context, () => undefined);
      if (!called.ok && hook.spec.policy === 'fail_closed')
        throw new HookFailed(`the ${context.event} hook ${hook.target.label} failed: ${called.error}`);
    }
  }

  private of(event: HookEvent): BoundHook[] {
    return this.hooks.filter((hook) => hook.spec.event === event);
  }

  private async invoke<T>(
    run: RunState,
    hook: BoundHook,
    context: HookContext,
    read: (reply: unknown) => T,
  ): Promise<Called<T>> {
    const { event, timeout_ms: timeoutMs, policy } = hook.spec;
    const target = hook.target.label;
    const started = performance.now();
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(new Error('timeout')), timeoutMs);
    const elapsed = () => Math.round(performance.now() - started);
    try {
      const reply = await untilAborted(
        hook.target.call({ context, signal: deadline.signal, timeoutMs, caller: callerOf(run, 'hook') }),
        deadline.signal,
      );
      const value = read(reply);
      const decision = (value as ToolDecision | undefined)?.action;
      this.record(run, {
        event,
        target,
        outcome: 'ok',
        elapsedMs: elapsed(),
        ...(decision ? { decision } : {}),
      });
      return { ok: true, value };
    } catch (err) {
      const timedOut = deadline.signal.aborted;
      const error = timedOut ? `no answer within ${timeoutMs} ms` : messageOf(err);
      const outcome = timedOut ? 'timeout' : 'error';
      this.record(run, { event, target, outcome, elapsedMs: elapsed(), policy, error });
      return { ok: false, error };
    } finally {
      clearTimeout(timer);
    }
  }
}

/** A target that does not give up when told (a DNS lookup) still loses the race with its deadline. */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    signal.addEventListener('abort', () => reject(signal.reason), { once: true });
    work.then(resolve, reject);
  });
}

function messageOf(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  return message.slice(0, 500) || 'the hook failed';
}
