import { Inject, Injectable } from '@nestjs/common';
import { AgentRunRequest, AppError, type FunctionResult, parseDto } from '@app/contracts';
import type { PlatformConfig } from '@app/config';
import type { FunctionContext } from '@app/functions';
import { PLATFORM_CONFIG } from '@app/runtime';
import { newId } from '@app/agent-core';
import { AgentTurnService } from '../turns/agent-turn.service';
import { RunControlService } from '../runs/run-control.service';
import type { RunLineage } from '../store/run.repository';
import { chainFor } from './agent-chain';
import type { AgentMessageParams } from './agent-message.params';

/**
 * One call of an agent as a function: a turn of that agent for the caller's principal with the
 * caller's scopes (never more), linked to the calling run, bounded by what the caller has left of
 * its time, tokens and cost, refused when the agent is already in the chain or the chain is too deep.
 */
@Injectable()
export class AgentCallsService {
  constructor(
    @Inject(PLATFORM_CONFIG) private readonly config: PlatformConfig,
    @Inject(AgentTurnService) private readonly turns: AgentTurnService,
    @Inject(RunControlService) private readonly control: RunControlService,
  ) {}

  async call(agent: string, params: AgentMessageParams, ctx: FunctionContext): Promise<FunctionResult> {
    const { caller } = ctx;
    if (caller.tokens_left === 0 || caller.cost_left_usd === 0)
      throw new AppError('budget_exceeded', `the calling run has no budget left to run agent '${agent}'`);
    const lineage: RunLineage = {
      chain: chainFor(caller, agent, this.config.executor.agent_call_depth),
      deadline: ctx.deadline,
      ...(caller.kind === 'agent' && caller.run_id ? { parentRunId: caller.run_id } : {}),
      ...(caller.tokens_left === undefined ? {} : { tokensLeft: caller.tokens_left }),
      ...(caller.cost_left_usd === undefined ? {} : { costLeftUsd: caller.cost_left_usd }),
    };
    const request = parseDto(
      AgentRunRequest,
      {
        message: params.message,
        agent,
        run_id: newId('run'),
        ...(params.session_id ? { session_id: params.session_id } : {}),
        ...(caller.principal ? { principal: caller.principal } : {}),
        ...(caller.key_id ? { key_id: caller.key_id } : {}),
        ...(caller.scopes ? { scopes: caller.scopes } : {}),
      },
      'agent call',
    );
    const stop = this.cancelOnAbort(ctx.signal, request.run_id!, caller.principal);
    try {
      const reply = await this.turns.run(request, lineage);
      if (reply.error) throw new AppError(reply.error.code, reply.error.message, reply.error.details);
      const { run_id, session_id, finish_reason, usage } = reply;
      return { data: { reply: reply.reply, run_id, session_id, finish_reason, usage }, usage };
    } finally {
      stop();
    }
  }

  /** The caller gave the call up (its run stopped, a cancel): the child run is cancelled too. */
  private cancelOnAbort(signal: AbortSignal, runId: string, principal?: string): () => void {
    const cancel = () => void this.control.cancel(runId, principal).catch(() => undefined);
    signal.addEventListener('abort', cancel, { once: true });
    return () => signal.removeEventListener('abort', cancel);
  }
}
