import { All, Body, Controller, Get, Headers, Inject, Param, Post, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import {
  ChatCompletionRequest,
  ID_PATTERN,
  InvalidParamsError,
  NAME_PATTERN,
  AppError,
  AgentNotFoundError,
  ChatCompletionResponse,
  OpenAiErrorResponse,
  OpenAiModel,
  OpenAiModelList,
  parseDto,
} from '@app/contracts';
import { closedEarly, sendEventStream } from '../../common/event-stream';
import { ApiRoute } from '../../common/openapi/api-route.decorator';
import { AdmitsRun } from '../../auth/admits-run.decorator';
import { CurrentRunCaller } from '../../auth/principal.decorator';
import type { Caller } from '../../chat/chat.service';
import { OpenAiService } from './openai.service';

const OPENAI = { tag: 'openai', errorBody: OpenAiErrorResponse } as const;

/** The OpenAI-compatible API: models are agents; errors in OpenAI's shape. */
@Controller('v1')
export class OpenAiController {
  constructor(@Inject(OpenAiService) private readonly openai: OpenAiService) {}

  @Get('models')
  @ApiRoute({
    ...OPENAI,
    summary: 'The agents this key may use, one OpenAI model each',
    response: OpenAiModelList,
  })
  models() {
    return this.openai.models();
  }

  @Get('models/:model')
  @ApiRoute({ ...OPENAI, summary: 'One agent as an OpenAI model', response: OpenAiModel })
  model(@Param('model') model: string) {
    if (!NAME_PATTERN.test(model)) throw new AgentNotFoundError(model.slice(0, 64));
    return this.openai.model(model);
  }

  /** `X-Session-Id` continues a session; without it, `messages` is the whole conversation. */
  @Post('chat/completions')
  @AdmitsRun()
  @ApiRoute({
    ...OPENAI,
    summary: "One agent turn in OpenAI's Chat Completions format (`model` = agent name)",
    description:
      '`X-Session-Id` continues a session (answered on every response, with `X-Run-Id`); without it `messages` is the whole context. ' +
      'With `stream: true`: `chat.completion.chunk` objects as `data:` lines, ending with `data: [DONE]`.',
    body: ChatCompletionRequest,
    response: ChatCompletionResponse,
    status: 200,
    content: {
      'text/event-stream': {
        schema: {
          type: 'string',
          description: '`data: <chat.completion.chunk JSON>` lines, then `data: [DONE]`',
        },
      },
    },
    errors: { 409: 'conflict: a tool call already answered' },
  })
  async complete(
    @Body() body: unknown,
    @Headers('x-session-id') sessionId: string | undefined,
    @CurrentRunCaller() caller: Caller,
    @Res() res: Response,
  ): Promise<void> {
    if (sessionId !== undefined && !ID_PATTERN.test(sessionId))
      throw new InvalidParamsError([{ field: 'X-Session-Id', message: 'must be a session id (ses_…)' }]);
    const request = parseDto(ChatCompletionRequest, body, 'chat completion request', { unknown: 'strip' });
    if (request.stream) {
      const { events, format } = this.openai.stream(request, sessionId, caller, closedEarly(res));
      return sendEventStream(res, events, format);
    }
    const { reply, completion } = await this.openai.complete(request, sessionId, caller, closedEarly(res));
    res.set({ 'x-run-id': reply.run_id, 'x-session-id': reply.session_id }).status(200).json(completion);
  }

  /** Other OpenAI endpoints (embeddings, files, …) are not served: a 404 in OpenAI's shape. */
  @All('*path')
  @ApiRoute({
    ...OPENAI,
    summary: 'Any other OpenAI endpoint: not served (404 in OpenAI’s shape)',
    errors: { 404: 'not served' },
  })
  unknown(@Req() req: Request): never {
    throw new AppError(
      'not_found',
      `${req.method} ${req.path} is not served: the OpenAI-compatible API has GET /v1/models, POST /v1/chat/completions and /v1/responses`,
    );
  }
}
