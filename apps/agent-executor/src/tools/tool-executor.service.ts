import { Inject, Injectable } from '@nestjs/common';
import {
  AppError,
  type ErrorBody,
  type FnExecReply,
  type FunctionDefinition,
  type FunctionResult,
} from '@app/contracts';
import { applySchemaTypes } from '@app/protocol';
import { allowsEverything, FunctionClient, isAllowed, ProviderGoneError } from '@app/functions';
import { newId } from '../common/ids';
import { RunEventsPublisher } from '../events/run-events.publisher';
import type { RunState } from '../runs/run-state';
import { FunctionCatalogService } from './function-catalog.service';
import { answerFunctionDescribe, isFunctionDescribe } from './function-describe';
import { errorObservation, successObservation } from './observation';
import { validateAgainstDefinition } from './param-validator';
import type { ToolBatch, ToolCall, ToolOutcome } from './tool-call';

/** Time the bus waits past a call's own deadline for the provider's timeout reply. */
const PROVIDER_TIMEOUT_REPLY_GRACE_MS = 500;

type Checked = {
  call: ToolCall;
  args: Record<string, unknown>;
  refusal?: ErrorBody;
  definition?: FunctionDefinition;
  /** Answered by the executor itself (function_describe): no provider, no call counted. */
  local?: FunctionResult;
};

/**
 * Runs the calls of one model reply: refuses what the allow-list, the schema or `max_tool_calls`
 * forbids (the model is told why; nothing is executed), executes the rest concurrently over
 * `fn.exec.<name>` with `single_call_timeout`, and returns every outcome in call order.
 */
@Injectable()
export class ToolExecutorService {
  constructor(
    @Inject(FunctionClient) private readonly functions: FunctionClient,
    @Inject(FunctionCatalogService) private readonly catalog: FunctionCatalogService,
    @Inject(RunEventsPublisher) private readonly events: RunEventsPublisher,
  ) {}

  async executeAll(calls: ToolCall[], run: RunState): Promise<ToolBatch> {
    const checked: Checked[] = [];
    for (const call of calls) checked.push(await this.check(call, run));
    let limitReached = false;
    for (const item of checked) {
      if (item.refusal || item.local) continue;
      if (run.toolCallsExecuted >= run.profile.max_tool_calls) {
        limitReached = true;
        item.refusal = {
          code: 'rate_limited',
          message: `the limit of ${run.profile.max_tool_calls} function calls for this run is reached`,
        };
        continue;
      }
      run.toolCallsExecuted += 1;
    }
    const allowed = await this.allowedNames(run);
    const outcomes = await Promise.all(checked.map((item, index) => this.settle(item, index, run, allowed)));
    for (const outcome of outcomes) this.record(run, outcome);
    return { outcomes, limitReached };
  }

  private async check(call: ToolCall, run: RunState): Promise<Checked> {
    const { allowed_tools: allowList, name: agent } = run.profile;
    if (isFunctionDescribe(call.name)) {
      const answer = answerFunctionDescribe(call.params, await this.catalog.allowedFor(allowList));
      return 'error' in answer
        ? { call, args: call.params, refusal: answer.error }
        : { call, args: call.params, local: answer.result };
    }
    if (!isAllowed(allowList, call.name)) {
      return refuse(call, 'forbidden', `function '${call.name}' is not available to agent '${agent}'`);
    }
    const definition = await this.catalog.find(call.name);
    if (!definition) return refuse(call, 'not_found', `function '${call.name}' does not exist`);
    const args = applySchemaTypes(call, definition.parameters);
    const errors = validateAgainstDefinition(definition, args);
    if (errors.length > 0) {
      const message = `invalid parameters: ${errors.map((e) => `${e.field}: ${e.message}`).join('; ')}`;
      return { call, args, definition, refusal: { code: 'invalid_params', message, details: errors } };
    }
    return { call, args, definition };
  }

  private async settle(
    item: Checked,
    index: number,
    run: RunState,
    allowed?: string[],
  ): Promise<ToolOutcome> {
    const { call, args, definition } = item;
    this.events.emit(run, 'tool_call', { step: run.step, index, name: call.name, args });
    const outcome = item.refusal
      ? this.outcome(run, call, args, { error: item.refusal, executed: false, elapsedMs: 0 })
      : item.local
        ? this.outcome(run, call, args, { result: item.local, executed: false, elapsedMs: 0 })
        : await this.execute(run, call, args, allowed, definition);
    this.events.emit(run, 'tool_result', {
      step: run.step,
      index,
      name: call.name,
      status: outcome.status,
      ...(outcome.status === 'success' ? { result: outcome.result } : { error: outcome.error }),
      elapsed_ms: outcome.elapsedMs,
    });
    return outcome;
  }

  /** In call order, whatever order the calls finished in. */
  private record(run: RunState, outcome: ToolOutcome): void {
    if (outcome.executed) run.recordToolUse(outcome.call.name, outcome.elapsedMs);
    run.functionCalls.push({
      name: outcome.call.name,
      status: outcome.status,
      result: outcome.status === 'success' ? outcome.result : outcome.error,
    });
  }

  private async execute(
    run: RunState,
    call: ToolCall,
    args: Record<string, unknown>,
    allowed?: string[],
    definition?: FunctionDefinition,
  ): Promise<ToolOutcome> {
    const started = performance.now();
    const timeoutMs = Math.max(1, Math.min(run.profile.single_call_timeout, run.remainingMs()));
    let reply: FnExecReply;
    try {
      reply = await this.functions.call(call.name, args, {
        timeoutMs,
        graceMs: PROVIDER_TIMEOUT_REPLY_GRACE_MS,
        callId: newId('call'),
        caller: {
          agent: run.profile.name,
          run_id: run.runId,
          session_id: run.identity.sessionId,
          principal: run.identity.principal,
          scopes: run.identity.scopes,
          kind: 'agent',
        },
        ...(allowed ? { allowedTools: allowed } : {}),
        // aborting the run (deadline or cancel) gives the call up and cancels it at its provider
        signal: run.signal,
      });
    } catch (err) {
      reply = { status: 'error', error: busFailure(call.name, err, timeoutMs, run), elapsed_ms: 0 };
    }
    const elapsedMs = Math.round(performance.now() - started);
    return reply.status === 'success'
      ? this.outcome(run, call, args, { result: reply.result ?? {}, executed: true, elapsedMs }, definition)
      : this.outcome(run, call, args, { error: reply.error, executed: true, elapsedMs });
  }

  private outcome(
    run: RunState,
    call: ToolCall,
    args: Record<string, unknown>,
    found: { result?: FunctionResult; error?: ErrorBody; executed: boolean; elapsedMs: number },
    definition?: FunctionDefinition,
  ): ToolOutcome {
    const maxLen = run.profile.observation_max_len;
    const observation = found.error
      ? errorObservation(call.name, found.error.message, maxLen)
      : successObservation(call.name, found.result ?? {}, {
          maxLen,
          model: run.profile.model,
          definition,
          args,
        });
    return { call, args, status: found.error ? 'error' : 'success', observation, ...found };
  }

  /** The provider's half of the allow-list: concrete names, or nothing when all are allowed. */
  private async allowedNames(run: RunState): Promise<string[] | undefined> {
    const allowList = run.profile.allowed_tools;
    if (allowsEverything(allowList)) return undefined;
    const known = [...(await this.catalog.all()).keys()].filter((name) => isAllowed(allowList, name));
    return known.length > 0 ? known : allowList.filter((entry) => !entry.endsWith('*'));
  }
}

function refuse(call: ToolCall, code: ErrorBody['code'], message: string): Checked {
  return { call, args: call.params, refusal: { code, message } };
}

function busFailure(name: string, err: unknown, timeoutMs: number, run: RunState): ErrorBody {
  if (run.abortReason)
    return { code: 'cancelled', message: `the run was stopped (${run.abortReason}) while ${name} ran` };
  const error = err instanceof AppError ? err : new AppError('internal', 'the call failed');
  // its provider died with the call: unavailable, naming it (another replica may serve a retry)
  if (error instanceof ProviderGoneError) return error.toBody();
  if (error.code === 'unavailable')
    return { code: 'not_found', message: `no provider serves function '${name}'` };
  if (error.code === 'timeout')
    return { code: 'timeout', message: `function '${name}' did not answer within ${timeoutMs} ms` };
  return error.toBody();
}
