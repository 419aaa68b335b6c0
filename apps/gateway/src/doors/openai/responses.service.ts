import { Inject, Injectable } from '@nestjs/common';
import type {
  AgentRunReply,
  CreateResponseRequest,
  ResponseInputItemList,
  ResponseObject,
  RunView,
} from '@app/contracts';
import { type Caller, ChatService, runIdFor } from '../../chat/chat.service';
import type { RunEvents } from '../../chat/run-events';
import { hasAnswered, replyFromRun } from '../../chat/stored-run-reply';
import { RunsService } from '../../runs/runs.service';
import { type ResponsesTurn, toResponsesTurn } from './responses-request';
import { pendingResponse, type ResponseEcho, runIdOf, toResponse } from './responses-resource';
import { ResponsesEvents } from './responses-stream';

/**
 * The Responses API over the platform's runs: a response is a turn of a run (the same limits,
 * quota and run path as `POST /api/v1/chat`), `previous_response_id` continues its session, a
 * `function_call_output` answers the run that asked, an `mcp_approval_response` decides a held call.
 */
@Injectable()
export class ResponsesService {
  constructor(
    @Inject(ChatService) private readonly chat: ChatService,
    @Inject(RunsService) private readonly runs: RunsService,
  ) {}

  async create(body: CreateResponseRequest, caller: Caller, signal?: AbortSignal): Promise<ResponseObject> {
    const turn = await this.turnOf(body, caller);
    const echo = echoOf(body);
    if (turn.kind === 'decide') return toResponse(await this.decide(turn, caller), echo);
    return toResponse(await this.chat.turn(turn.run, caller, signal), echo);
  }

  /** The response as its events, and the format that writes them. */
  async stream(
    body: CreateResponseRequest,
    caller: Caller,
    signal?: AbortSignal,
  ): Promise<{ events: RunEvents; format: ResponsesEvents }> {
    const turn = await this.turnOf(body, caller);
    const echo = echoOf(body);
    if (turn.kind === 'decide') {
      const last = turn.decisions.at(-1)!;
      await this.decide({ ...turn, decisions: turn.decisions.slice(0, -1) }, caller);
      return {
        events: this.runs.approveStream(turn.runId, caller, last),
        format: new ResponsesEvents(turn.runId, echo),
      };
    }
    const runId = runIdFor(turn.run);
    return {
      events: this.chat.streamTurn({ ...turn.run, run_id: runId }, caller, signal),
      format: new ResponsesEvents(runId, echo),
    };
  }

  async get(id: string, principal: string): Promise<ResponseObject> {
    const run = await this.runs.get(runIdOf(id), principal);
    const echo = { model: run.agent, created_at: secondsOf(run.created_at) };
    if (!hasAnswered(run)) return pendingResponse(run.id, echo, run.session_id ?? '');
    return toResponse(replyFromRun(run), echo);
  }

  async cancel(id: string, principal: string): Promise<ResponseObject> {
    const runId = runIdOf(id);
    const reply = await this.runs.cancel(runId, principal);
    const run = await this.runs.get(runId, principal);
    return toResponse(reply, { model: run.agent, created_at: secondsOf(run.created_at) });
  }

  /** The response's input: the message its run was asked. */
  async inputItems(id: string, principal: string): Promise<ResponseInputItemList> {
    const run: RunView = await this.runs.get(runIdOf(id), principal);
    const itemId = `msg_${run.id.replace(/^run_/, '')}_input`;
    const item = {
      type: 'message',
      id: itemId,
      status: 'completed',
      role: 'user',
      content: [{ type: 'input_text', text: run.input }],
    };
    return { object: 'list', data: [item], first_id: itemId, last_id: itemId, has_more: false };
  }

  /** The request as a turn; `previous_response_id` names the session it continues. */
  private async turnOf(body: CreateResponseRequest, caller: Caller): Promise<ResponsesTurn> {
    const previous = body.previous_response_id
      ? await this.runs.get(runIdOf(body.previous_response_id), caller.principal)
      : undefined;
    return toResponsesTurn(body, previous?.session_id ?? undefined);
  }

  /** Each decision in turn; the reply of the last is the run's next stop. */
  private async decide(
    turn: Extract<ResponsesTurn, { kind: 'decide' }>,
    caller: Caller,
  ): Promise<AgentRunReply> {
    let reply: AgentRunReply | undefined;
    for (const decision of turn.decisions) reply = await this.runs.approve(turn.runId, caller, decision);
    return reply!;
  }
}

function echoOf(body: CreateResponseRequest): ResponseEcho {
  return {
    model: body.model,
    created_at: Math.floor(Date.now() / 1000),
    ...(body.instructions ? { instructions: body.instructions } : {}),
    ...(body.previous_response_id ? { previous_response_id: body.previous_response_id } : {}),
    ...(body.tools ? { tools: body.tools.map((tool) => ({ ...tool })) } : {}),
    ...(body.tool_choice ? { tool_choice: body.tool_choice } : {}),
    ...(body.metadata ? { metadata: body.metadata } : {}),
  };
}

function secondsOf(iso: string): number {
  return Math.floor(Date.parse(iso) / 1000);
}
