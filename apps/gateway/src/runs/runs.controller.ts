import { Body, Controller, Get, Headers, HttpCode, Inject, Param, Post, Query, Res } from '@nestjs/common';
import {
  ApproveRunBody,
  ListRunsQuery,
  parseDto,
  RejectRunBody,
  RunPage,
  RunPlanRequest,
} from '@app/contracts';
import type { Response } from 'express';
import { AGENT_SSE_EVENTS, AgentRunReply, RunView } from '@app/contracts';
import { CurrentPrincipal, CurrentRunCaller } from '../auth/principal.decorator';
import { type Caller, ChatService } from '../chat/chat.service';
import { platformEvents } from '../chat/platform-events';
import { closedEarly, sendEventStream } from '../common/event-stream';
import { idempotencyKeyOf } from '../common/idempotency-key';
import { wantsEventStream } from '../chat/chat.controller';
import { eventIdOf, resourceId } from './resource-id';
import { approvalOf, rejectionOf } from './run-decision';
import { RunsService } from './runs.service';
import { ApiRoute } from '../common/openapi/api-route.decorator';

@Controller('api/v1/runs')
export class RunsController {
  constructor(
    @Inject(RunsService) private readonly runs: RunsService,
    @Inject(ChatService) private readonly chat: ChatService,
  ) {}

  /** A run of the caller's own plan: a turn like a chat message, with the same limits, SSE and retries. */
  @Post()
  @ApiRoute({
    summary: 'Run the caller’s own plan',
    description:
      'The agent carries out the given steps in order (its step-failure policy, allow-list and parameter ' +
      'checks, as for a plan its model writes), then one model call writes the answer. The plan is checked ' +
      'whole first: a bad one runs nothing and is refused with every bad step named. JSON by default; ' +
      'server-sent events with `stream: true` or `Accept: text/event-stream`.',
    body: RunPlanRequest,
    response: AgentRunReply,
    status: 200,
    events: AGENT_SSE_EVENTS,
    headers: {
      'Idempotency-Key':
        'Makes the run safe to retry, as for `POST /api/v1/chat` (the plan is part of the body compared).',
    },
    errors: {
      400: 'invalid_params: the plan, every bad step named (`plan.steps[2].parameters.to: is required`)',
      404: 'not_found: no such session (of this key) or agent',
      409: 'idempotency_conflict: the Idempotency-Key was used with another body',
    },
  })
  async create(
    @Body() body: unknown,
    @Headers('accept') accept: string | undefined,
    @Headers('idempotency-key') idempotencyHeader: string | undefined,
    @CurrentRunCaller() caller: Caller,
    @Res() res: Response,
  ): Promise<void> {
    const request = parseDto(RunPlanRequest, body, 'run request');
    const key = idempotencyKeyOf(idempotencyHeader);
    if (request.stream || wantsEventStream(accept))
      return sendEventStream(res, this.chat.stream(request, caller, closedEarly(res), key), platformEvents);
    res.status(200).json(await this.chat.chat(request, caller, closedEarly(res), key));
  }

  /** The caller's runs, newest first: filters `session_id`, `status`, `agent`; `limit`, `cursor`. */
  @Get()
  @ApiRoute({ summary: 'The caller’s runs, newest first', query: ListRunsQuery, response: RunPage })
  list(@Query() query: unknown, @CurrentPrincipal() principal: string) {
    return this.runs.list(parseDto(ListRunsQuery, query ?? {}, 'query'), principal);
  }

  /** The run with its trace, plan, tool statistics and usage. */
  @Get(':id')
  @ApiRoute({ summary: 'A run with its trace, plan, tool statistics and usage', response: RunView })
  get(@Param('id') id: string, @CurrentPrincipal() principal: string) {
    return this.runs.get(resourceId('run', id), principal);
  }

  /**
   * The run's events as server-sent events, after the one `Last-Event-ID` names (all kept without
   * it), to its `run_end`: how a stream that lost its connection (or its gateway) goes on.
   */
  @Get(':id/events')
  @ApiRoute({
    summary: 'A run’s events, resumed after the last one a stream got',
    description:
      'Server-sent events as `POST /api/v1/chat` streams them, each with its `id:`. With `Last-Event-ID` ' +
      '(or `?after=`) the events after that one, then the rest as they happen, ending with `run_end`: no ' +
      'gap, no duplicate, on any gateway. Without it, every event kept. Events are kept for ' +
      '`events.retention` (1 h by default); a run whose events are gone answers with its reply as `run_end`.',
    response: AgentRunReply,
    status: 200,
    events: AGENT_SSE_EVENTS,
    headers: { 'Last-Event-ID': 'The `id:` of the last event the lost stream got.' },
    errors: {
      400: 'bad_request: Last-Event-ID (or after) is not an event id',
      404: 'not_found: no such run (of this key)',
    },
  })
  async events(
    @Param('id') id: string,
    @Headers('last-event-id') lastEventId: string | undefined,
    @Query('after') after: string | undefined,
    @CurrentRunCaller() caller: Caller,
    @Res() res: Response,
  ): Promise<void> {
    const runId = resourceId('run', id);
    const events = this.chat.resume(runId, caller, eventIdOf(lastEventId ?? after));
    return sendEventStream(res, events, platformEvents);
  }

  @Post(':id/cancel')
  @ApiRoute({ summary: 'Stop a run', response: AgentRunReply })
  @HttpCode(200)
  cancel(@Param('id') id: string, @CurrentPrincipal() principal: string) {
    return this.runs.cancel(resourceId('run', id), principal);
  }

  /**
   * Runs the held plan, or decides a held function call (`hash`): runs it, with `edit` otherwise,
   * or with `respond` gives the model a result instead. Answers with the chat response once the
   * run stops again, or streams it with `Accept: text/event-stream`.
   */
  @Post(':id/approve')
  @ApiRoute({
    summary: 'Run a plan held for approval, or approve a held function call',
    description:
      'Without a body: runs the held plan. With `hash` (and `call_id` when the run holds more than one ' +
      'call): runs the held call, with `edit.arguments` instead if given (checked against the ' +
      "function's schema), or with `respond.result` runs nothing and gives the model that result. The run " +
      'goes on once every held call is decided. JSON, or server-sent events with `Accept: text/event-stream`.',
    body: ApproveRunBody,
    response: AgentRunReply,
    status: 200,
    events: AGENT_SSE_EVENTS,
    errors: {
      400: 'invalid_params: edited arguments the schema refuses; a call named without its hash',
      404: 'not_found: no such run (of this key), or no such held call',
      409: 'conflict: the run is not awaiting approval, or the hash is not the held call’s',
    },
  })
  async approve(
    @Param('id') id: string,
    @Body() body: unknown,
    @Headers('accept') accept: string | undefined,
    @CurrentRunCaller() caller: Caller,
    @Res() res: Response,
  ): Promise<void> {
    const runId = resourceId('run', id);
    const decision = approvalOf(parseDto(ApproveRunBody, body ?? {}, 'decision'));
    if (wantsEventStream(accept))
      return sendEventStream(res, this.runs.approveStream(runId, caller, decision), platformEvents);
    res.status(200).json(await this.runs.approve(runId, caller, decision));
  }

  /** Rejects the held plan, or a held function call (`hash`): the model reads `reason` as its error. */
  @Post(':id/reject')
  @ApiRoute({
    summary: 'Reject a plan held for approval, or a held function call',
    description:
      'Without `hash`: the held plan is rejected and the run ends (its `reason`, if given, recorded with the ' +
      'decision and as the run’s error). With `hash`: the held call is not ' +
      'run, the model reads `reason` as its error and the run goes on (streamed with `Accept: text/event-stream`).',
    body: RejectRunBody,
    response: AgentRunReply,
    status: 200,
    events: AGENT_SSE_EVENTS,
    errors: {
      404: 'not_found: no such run (of this key), or no such held call',
      409: 'conflict: the run is not awaiting approval, or the hash is not the held call’s',
    },
  })
  async reject(
    @Param('id') id: string,
    @Body() body: unknown,
    @Headers('accept') accept: string | undefined,
    @CurrentRunCaller() caller: Caller,
    @Res() res: Response,
  ): Promise<void> {
    const runId = resourceId('run', id);
    const parsed = parseDto(RejectRunBody, body ?? {}, 'decision');
    const decision = rejectionOf(parsed);
    if (!decision) {
      res.status(200).json(await this.runs.reject(runId, caller, parsed.reason));
      return;
    }
    if (wantsEventStream(accept))
      return sendEventStream(res, this.runs.approveStream(runId, caller, decision), platformEvents);
    res.status(200).json(await this.runs.approve(runId, caller, decision));
  }
}
