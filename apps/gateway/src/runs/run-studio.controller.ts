import { Body, Controller, Get, Headers, Inject, Param, Post, Res } from '@nestjs/common';
import type { Response } from 'express';
import {
  AGENT_SSE_EVENTS,
  AgentRunReply,
  ForkRunBody,
  InvalidParamsError,
  MAX_STEP,
  parseDto,
  StepMessagesView,
} from '@app/contracts';
import { CurrentPrincipal, CurrentRunCaller } from '../auth/principal.decorator';
import { type Caller } from '../chat/chat.service';
import { wantsEventStream } from '../chat/chat.controller';
import { platformEvents } from '../chat/platform-events';
import { closedEarly, sendEventStream } from '../common/event-stream';
import { ApiRoute } from '../common/openapi/api-route.decorator';
import { resourceId } from './resource-id';
import { RunForkService } from './run-fork.service';
import { RunsService } from './runs.service';

/** Looking into a run and trying it again: what a model step saw, and a fork from any step. */
@Controller('api/v1/runs')
export class RunStudioController {
  constructor(
    @Inject(RunsService) private readonly runs: RunsService,
    @Inject(RunForkService) private readonly forks: RunForkService,
  ) {}

  @Get(':id/steps/:step/messages')
  @ApiRoute({
    summary: 'What one model step sent and got back',
    description:
      'The messages of model step `step` as the provider received them (system prompt with its ' +
      'functions section, earlier turns, function results) and its raw reply, rebuilt from the ' +
      "run's journal, each with its token count; known secrets are masked.",
    response: StepMessagesView,
    errors: {
      400: 'invalid_params: the step is not a whole number from 1',
      404: 'not_found: no such run (of this key), or the run has no such model step',
    },
  })
  messages(@Param('id') id: string, @Param('step') step: string, @CurrentPrincipal() principal: string) {
    return this.runs.stepMessages(resourceId('run', id), stepNumber(step), principal);
  }

  @Post(':id/fork')
  @ApiRoute({
    summary: 'Run a run again from a step, with a change',
    description:
      "A new run takes the run's steps before `from_step` from its journal (no model or function is " +
      'asked again) and runs live from `from_step`, with the message, agent profile, model or the ' +
      "previous step's function results changed as given. In a new session (default, with the run's " +
      'earlier history) or the same one (`session: "same"`). JSON, or server-sent events with ' +
      '`stream: true` or `Accept: text/event-stream`.',
    body: ForkRunBody,
    response: AgentRunReply,
    status: 200,
    events: AGENT_SSE_EVENTS,
    errors: {
      400: 'invalid_params: a bad body; `from_step` past the run’s steps; results without a step before',
      404: 'not_found: no such run (of this key), or agent',
      409: 'conflict: the run is still going',
    },
  })
  async fork(
    @Param('id') id: string,
    @Body() body: unknown,
    @Headers('accept') accept: string | undefined,
    @CurrentRunCaller() caller: Caller,
    @Res() res: Response,
  ): Promise<void> {
    const runId = resourceId('run', id);
    const request = parseDto(ForkRunBody, body, 'fork');
    if (request.stream || wantsEventStream(accept))
      return sendEventStream(
        res,
        this.forks.forkStream(runId, request, caller, closedEarly(res)),
        platformEvents,
      );
    res.status(200).json(await this.forks.fork(runId, request, caller, closedEarly(res)));
  }
}

function stepNumber(text: string): number {
  const step = /^\d{1,6}$/.test(text) ? Number(text) : NaN;
  if (!(step >= 1 && step <= MAX_STEP))
    throw new InvalidParamsError([
      { field: 'step', message: `must be a whole number from 1 to ${MAX_STEP}` },
    ]);
  return step;
}
