import type { ErrorBody, FunctionDefinition, FunctionResult } from '@app/contracts';
import { allowsEverything, applySchemaTypes, isAllowed } from '@app/protocol';
import { newId } from '../ids';
import { callerOf, idempotencyKeyOf } from './call-identity';
import type { FunctionCallOutcome } from '../ports';
import type { RunContext } from '../run-context';
import { answerFunctionDescribe, isFunctionDescribe } from './function-describe';
import { errorObservation, successObservation } from './observation';
import { paramErrors } from './param-check';
import type { ToolBatch, ToolCall, ToolOutcome } from './tool-call';
import type { ToolCallEntry } from '../journal/journal-entry';
import { IN_FLIGHT } from '../journal/journal-replay';
import {
  argumentsHash,
  decisionFor,
  type HeldCall,
  heldCallId,
  needsApproval,
  rejection,
  respondedResult,
} from './approval-gate';

type Checked = {
  call: ToolCall;
  args: Record<string, unknown>;
  refusal?: ErrorBody;
  definition?: FunctionDefinition;
  /** Answered by the run itself (function_describe, a reviewer's result): no provider, no call counted. */
  local?: FunctionResult;
  /** A reviewer decided it (it was held for approval): it is not held again. */
  decided?: boolean;
};

/**
 * One tool step: the calls of one model reply. Refuses what a hook, the allow-list, the schema or
 * `max_tool_calls` forbids (the model is told why; nothing is executed), executes the rest
 * concurrently with `single_call_timeout`, and returns every outcome in call order. A failed call
 * is fed back to the model, never retried.
 */
export async function toolStep(
  ctx: RunContext,
  calls: ToolCall[],
  options: { hold?: boolean } = {},
): Promise<ToolBatch> {
  const { run } = ctx;
  const checked: Checked[] = [];
  for (const [index, call] of calls.entries()) checked.push(await decided(ctx, await gate(ctx, call), index));
  // A reply whose calls need a decision runs none of them until every one is decided.
  const held = options.hold ? heldCalls(ctx, checked) : [];
  if (held.length > 0) return { outcomes: [], limitReached: false, held };
  let limitReached = false;
  for (const item of checked) {
    if (item.refusal || item.local) continue;
    if (run.toolCallsExecuted >= run.definition.max_tool_calls) {
      limitReached = true;
      item.refusal = {
        code: 'rate_limited',
        message: `the limit of ${run.definition.max_tool_calls} function calls for this run is reached`,
      };
      continue;
    }
    run.countToolCall();
  }
  const allowed = await allowedNames(ctx);
  const outcomes = await Promise.all(checked.map((item, index) => settle(ctx, item, index, allowed)));
  for (const outcome of outcomes) await record(ctx, outcome);
  return { outcomes, limitReached };
}

/** The `beforeTool` hook's say, then the checks on what it leaves (rewritten arguments included). */
async function gate(ctx: RunContext, call: ToolCall): Promise<Checked> {
  const decision = await ctx.hooks?.beforeTool?.(ctx.run, call);
  if (decision?.action === 'deny') return refuse(call, 'forbidden', decision.reason);
  const allowedCall =
    decision?.action === 'rewrite' ? { ...call, params: decision.args, raw: undefined } : call;
  return check(ctx, allowedCall);
}

/** A held call's decision, once taken: edited arguments are checked again like the model's own. */
async function decided(ctx: RunContext, item: Checked, index: number): Promise<Checked> {
  if (item.refusal || item.local) return item;
  const decision = decisionFor(ctx, index, item.args);
  if (!decision) return item;
  if (decision.action === 'reject') return { ...item, refusal: rejection(decision.reason), decided: true };
  if (decision.action === 'respond')
    return { ...item, local: respondedResult(decision.result), decided: true };
  const approved = decision.args
    ? await check(ctx, { ...item.call, params: decision.args, raw: undefined })
    : item;
  return { ...approved, decided: true };
}

/** The calls this step must hold: those `needs_approval` names, allowed and valid, not decided yet. */
function heldCalls(ctx: RunContext, checked: Checked[]): HeldCall[] {
  const { run } = ctx;
  return checked.flatMap((item, index) =>
    item.refusal || item.local || item.decided || !needsApproval(run.definition, item.call.name)
      ? []
      : [
          {
            callId: heldCallId(run.runId, run.step, index),
            step: run.step,
            index,
            name: item.call.name,
            args: item.args,
            hash: argumentsHash(item.args),
          },
        ],
  );
}

async function check(ctx: RunContext, call: ToolCall): Promise<Checked> {
  const { allowed_tools: allowList, name: agent } = ctx.run.definition;
  if (isFunctionDescribe(call.name)) {
    const visible = (await ctx.functions.catalogue()).filter((fn) => isAllowed(allowList, fn.name));
    const answer = answerFunctionDescribe(call.params, visible);
    return 'error' in answer
      ? { call, args: call.params, refusal: answer.error }
      : { call, args: call.params, local: answer.result };
  }
  if (!isAllowed(allowList, call.name)) {
    return refuse(call, 'forbidden', `function '${call.name}' is not available to agent '${agent}'`);
  }
  const definition = await ctx.functions.find(call.name);
  if (!definition) return refuse(call, 'not_found', `function '${call.name}' does not exist`);
  const args = applySchemaTypes(call, definition.parameters);
  const errors = paramErrors(definition, args);
  if (errors.length > 0) {
    const message = `invalid parameters: ${errors.map((e) => `${e.field}: ${e.message}`).join('; ')}`;
    return { call, args, definition, refusal: { code: 'invalid_params', message, details: errors } };
  }
  return { call, args, definition };
}

async function settle(
  ctx: RunContext,
  item: Checked,
  index: number,
  allowed?: string[],
): Promise<ToolOutcome> {
  const { run } = ctx;
  const { call, args, definition } = item;
  const journaled = ctx.replay?.toolCall(run.step, index);
  run.emit('tool_call', { step: run.step, index, name: call.name, args });
  const outcome: ToolOutcome = {
    index,
    ...(journaled && journaled !== IN_FLIGHT
      ? { ...replayedOutcome(call, args, journaled), replayed: true }
      : item.refusal
        ? outcomeOf(ctx, call, args, { error: item.refusal, executed: false, elapsedMs: 0 })
        : item.local
          ? outcomeOf(ctx, call, args, { result: item.local, executed: false, elapsedMs: 0 })
          : journaled === IN_FLIGHT && !definition?.idempotent
            ? outcomeOf(ctx, call, args, { error: OUTCOME_UNKNOWN, executed: true, elapsedMs: 0 })
            : await execute(ctx, call, args, index, allowed, definition)),
  };
  run.emit('tool_result', {
    step: run.step,
    index,
    name: call.name,
    status: outcome.status,
    ...(outcome.status === 'success' ? { result: outcome.result } : { error: outcome.error }),
    elapsed_ms: outcome.elapsedMs,
  });
  // journaled as it settles, not behind the slowest call of its step (the entry carries its index)
  if (!outcome.replayed) await ctx.journal?.toolCallCompleted(run, call, outcome);
  return outcome;
}

/** In call order, whatever order the calls finished in. */
async function record(ctx: RunContext, outcome: ToolOutcome): Promise<void> {
  const { run } = ctx;
  if (outcome.executed) run.recordToolUse(outcome.call.name, outcome.elapsedMs);
  run.functionCalls.push({
    name: outcome.call.name,
    status: outcome.status,
    result: outcome.status === 'success' ? outcome.result : outcome.error,
  });
  await ctx.hooks?.afterTool?.(run, outcome);
}

async function execute(
  ctx: RunContext,
  call: ToolCall,
  args: Record<string, unknown>,
  index: number,
  allowed?: string[],
  definition?: FunctionDefinition,
): Promise<ToolOutcome> {
  const { run } = ctx;
  await journalStart(ctx, { step: run.step, index, name: call.name, args }, definition);
  const started = performance.now();
  const timeoutMs = Math.max(1, Math.min(run.definition.single_call_timeout, run.remainingMs()));
  let reply: FunctionCallOutcome;
  try {
    reply = await ctx.functions.call({
      name: call.name,
      args,
      timeoutMs,
      callId: newId('call'),
      // only a call that may be sent again after a takeover needs its provider to recognise it
      ...(definition?.idempotent ? { idempotencyKey: idempotencyKeyOf(run.runId, run.step, index) } : {}),
      caller: callerOf(run),
      ...(allowed ? { allowedTools: allowed } : {}),
      // aborting the run (deadline or cancel) gives the call up and cancels it at its provider
      signal: run.signal,
    });
  } catch (err) {
    reply = {
      status: 'error',
      error: { code: 'internal', message: (err as Error).message || 'the call failed' },
    };
  }
  const elapsedMs = Math.round(performance.now() - started);
  // an agent called as a function spent these tokens for this run: its budgets count them
  if (reply.status === 'success' && reply.result.usage) run.addUsage(reply.result.usage);
  return reply.status === 'success'
    ? outcomeOf(ctx, call, args, { result: reply.result ?? {}, executed: true, elapsedMs }, definition)
    : outcomeOf(ctx, call, args, { error: reply.error, executed: true, elapsedMs });
}

/**
 * Journals that the call is about to be sent. Only a call that is not idempotent waits for the
 * entry: if it were lost, a run taken over would send the call again, doing its work twice. An
 * idempotent call sent again carries the same idempotency key and gets the recorded outcome, so its
 * entry is written behind the call (the store takes entries in order as they are handed over).
 */
async function journalStart(
  ctx: RunContext,
  started: { step: number; index: number; name: string; args: Record<string, unknown> },
  definition?: FunctionDefinition,
): Promise<void> {
  const written = ctx.journal?.toolCallStarted?.(ctx.run, started);
  if (!definition?.idempotent) return written;
  // Not awaited, so not failing the call either: the store reports its own failed writes.
  void Promise.resolve(written).catch(() => undefined);
}

/** A call's outcome as the model reads it: its result (or error) encoded and cut to the agent's limit. */
export function outcomeOf(
  ctx: RunContext,
  call: ToolCall,
  args: Record<string, unknown>,
  found: { result?: FunctionResult; error?: ErrorBody; executed: boolean; elapsedMs: number },
  definition?: FunctionDefinition,
): ToolOutcome {
  const { definition: agent } = ctx.run;
  const maxLen = agent.observation_max_len;
  const observation = found.error
    ? errorObservation(call.name, found.error.message, maxLen)
    : successObservation(call.name, found.result ?? {}, {
        maxLen,
        model: agent.model,
        definition,
        args,
        onTokensSaved: (tokens) => ctx.metrics?.tokensSaved?.(tokens),
      });
  return { call, args, status: found.error ? 'error' : 'success', observation, ...found };
}

/**
 * A call that was in flight when the run's executor stopped, of a function not declared
 * idempotent: sending it again might do its work twice, so the model is told instead.
 */
const OUTCOME_UNKNOWN: ErrorBody = {
  code: 'outcome_unknown',
  message:
    'this call was in flight when the run was interrupted; whether it took effect is unknown. Check before calling it again.',
};

/** A call as its journal entry kept it: the observation the model read, not sent again. */
export function replayedOutcome(
  call: ToolCall,
  args: Record<string, unknown>,
  entry: ToolCallEntry,
): ToolOutcome {
  return {
    call,
    args,
    status: entry.status,
    ...(entry.error ? { error: entry.error } : {}),
    executed: entry.executed,
    elapsedMs: entry.elapsedMs,
    observation: entry.observation,
  };
}

/** The provider's half of the allow-list: concrete names, or nothing when all are allowed. */
async function allowedNames(ctx: RunContext): Promise<string[] | undefined> {
  const allowList = ctx.run.definition.allowed_tools;
  if (allowsEverything(allowList)) return undefined;
  const known = (await ctx.functions.catalogue())
    .map((fn) => fn.name)
    .filter((name) => isAllowed(allowList, name));
  return known.length > 0 ? known : allowList.filter((entry) => !entry.endsWith('*'));
}

function refuse(call: ToolCall, code: ErrorBody['code'], message: string): Checked {
  return { call, args: call.params, refusal: { code, message } };
}
