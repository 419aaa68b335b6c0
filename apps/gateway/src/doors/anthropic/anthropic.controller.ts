import { Body, Controller, Headers, Inject, Post, Res } from '@nestjs/common';
import type { Response } from 'express';
import {
  AnthropicErrorResponse,
  AnthropicMessage,
  AnthropicMessagesRequest,
  ID_PATTERN,
  InvalidParamsError,
  parseDto,
} from '@app/contracts';
import { AdmitsRun } from '../../auth/admits-run.decorator';
import { CurrentRunCaller } from '../../auth/principal.decorator';
import type { Caller } from '../../chat/chat.service';
import { closedEarly, sendEventStream } from '../../common/event-stream';
import { ApiRoute } from '../../common/openapi/api-route.decorator';
import { AnthropicService } from './anthropic.service';

/** Anthropic's Messages API: models are agents; the key in `x-api-key`; errors in Anthropic's shape. */
@Controller('v1/messages')
export class AnthropicController {
  constructor(@Inject(AnthropicService) private readonly anthropic: AnthropicService) {}

  @Post()
  @AdmitsRun()
  @ApiRoute({
    tag: 'anthropic',
    errorBody: AnthropicErrorResponse,
    summary: "One agent turn in Anthropic's Messages format (`model` = agent name)",
    description:
      'The key in `x-api-key` (or `Authorization: Bearer`). A `tool_use` block asks the caller to run one of its ' +
      '`tools`; answer with a `tool_result` block. `X-Session-Id` continues a session (answered on every ' +
      'response, with `X-Run-Id`); without it `messages` is the whole context. A call held for approval is ' +
      'listed in `agentchassis.approvals`, decided at `POST /api/v1/runs/:id/approve`. With `stream: true`: ' +
      "Anthropic's events (`message_start` … `message_stop`).",
    body: AnthropicMessagesRequest,
    response: AnthropicMessage,
    status: 200,
    headers: { 'x-api-key': 'The API key (as Anthropic clients send it)' },
    content: {
      'text/event-stream': {
        schema: { type: 'string', description: '`event: <type>` / `data: <event JSON>` blocks' },
      },
    },
    errors: { 409: 'invalid_request_error: a tool call already answered' },
  })
  async create(
    @Body() body: unknown,
    @Headers('x-session-id') sessionId: string | undefined,
    @CurrentRunCaller() caller: Caller,
    @Res() res: Response,
  ): Promise<void> {
    if (sessionId !== undefined && !ID_PATTERN.test(sessionId))
      throw new InvalidParamsError([{ field: 'X-Session-Id', message: 'must be a session id (ses_…)' }]);
    const request = parseDto(AnthropicMessagesRequest, body, 'messages request', { unknown: 'strip' });
    if (request.stream) {
      const { events, format } = this.anthropic.stream(request, sessionId, caller, closedEarly(res));
      return sendEventStream(res, events, format);
    }
    const message = await this.anthropic.create(request, sessionId, caller, closedEarly(res));
    const { run_id, session_id } = message.agentchassis as { run_id: string; session_id: string };
    res.set({ 'x-run-id': run_id, 'x-session-id': session_id }).status(200).json(message);
  }
}
