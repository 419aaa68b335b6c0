import { Body, Controller, Get, HttpCode, Inject, Param, Post, Res } from '@nestjs/common';
import type { Response } from 'express';
import {
  CreateResponseRequest,
  OpenAiErrorResponse,
  parseDto,
  ResponseInputItemList,
  ResponseObject,
} from '@app/contracts';
import { AdmitsRun } from '../../auth/admits-run.decorator';
import { CurrentPrincipal, CurrentRunCaller } from '../../auth/principal.decorator';
import type { Caller } from '../../chat/chat.service';
import { closedEarly, sendEventStream } from '../../common/event-stream';
import { ApiRoute } from '../../common/openapi/api-route.decorator';
import { ResponsesService } from './responses.service';

const RESPONSES = { tag: 'openai', errorBody: OpenAiErrorResponse } as const;

/** The Responses API (OpenAI's, and the vendor-neutral Open Responses): a response is a turn of a run. */
@Controller('v1/responses')
export class ResponsesController {
  constructor(@Inject(ResponsesService) private readonly responses: ResponsesService) {}

  @Post()
  @AdmitsRun()
  @ApiRoute({
    ...RESPONSES,
    summary: 'One agent turn in the Responses API’s format (`model` = agent name)',
    description:
      '`previous_response_id` continues that response’s session (send only the new input). A `function_call` ' +
      'output item asks the caller to run one of its `tools`; answer with a `function_call_output` input item. ' +
      'A call held for approval is an `mcp_approval_request` item; answer with `mcp_approval_response`. ' +
      'With `stream: true`: `response.created`, the output items’ events, then `response.completed`.',
    body: CreateResponseRequest,
    response: ResponseObject,
    status: 200,
    content: {
      'text/event-stream': {
        schema: { type: 'string', description: '`event: <type>` / `data: <event JSON>` blocks' },
      },
    },
    errors: { 409: 'conflict: a function call already answered, or a call no longer held' },
  })
  async create(
    @Body() body: unknown,
    @CurrentRunCaller() caller: Caller,
    @Res() res: Response,
  ): Promise<void> {
    const request = parseDto(CreateResponseRequest, body, 'response request', { unknown: 'strip' });
    if (request.stream) {
      const { events, format } = await this.responses.stream(request, caller, closedEarly(res));
      return sendEventStream(res, events, format);
    }
    const response = await this.responses.create(request, caller, closedEarly(res));
    res.set({ 'x-run-id': response.agentchassis.run_id }).status(200).json(response);
  }

  @Get(':id')
  @ApiRoute({ ...RESPONSES, summary: 'A response (its run’s state)', response: ResponseObject })
  get(@Param('id') id: string, @CurrentPrincipal() principal: string) {
    return this.responses.get(id, principal);
  }

  @Post(':id/cancel')
  @HttpCode(200)
  @ApiRoute({ ...RESPONSES, summary: 'Cancel a response (stops its run)', response: ResponseObject })
  cancel(@Param('id') id: string, @CurrentPrincipal() principal: string) {
    return this.responses.cancel(id, principal);
  }

  @Get(':id/input_items')
  @ApiRoute({ ...RESPONSES, summary: 'The input a response was asked', response: ResponseInputItemList })
  inputItems(@Param('id') id: string, @CurrentPrincipal() principal: string) {
    return this.responses.inputItems(id, principal);
  }
}
