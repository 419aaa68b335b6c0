import {
  All,
  Body,
  Controller,
  Get,
  Headers,
  Inject,
  Param,
  Post,
  Req,
  Res,
  SetMetadata,
  UseFilters,
} from '@nestjs/common';
import type { Request, Response } from 'express';
import {
  ChatCompletionRequest,
  ID_PATTERN,
  InvalidParamsError,
  NAME_PATTERN,
  AppError,
  NotFoundError,
  parseDto,
} from '@app/contracts';
import { CurrentKeyId, CurrentPrincipal } from '../auth/principal.decorator';
import { OpenAiErrorFilter } from './openai-error.filter';
import { OpenAiService } from './openai.service';

/** The OpenAI-compatible API: models are agents; errors in OpenAI's shape. */
@Controller('v1')
@UseFilters(OpenAiErrorFilter)
export class OpenAiController {
  constructor(@Inject(OpenAiService) private readonly openai: OpenAiService) {}

  @Get('models')
  models() {
    return this.openai.models();
  }

  @Get('models/:model')
  model(@Param('model') model: string) {
    if (!NAME_PATTERN.test(model)) throw new NotFoundError('agent', model.slice(0, 64));
    return this.openai.model(model);
  }

  /** `X-Session-Id` continues a session; without it, `messages` is the whole conversation. */
  @Post('chat/completions')
  complete(
    @Body() body: unknown,
    @Headers('x-session-id') sessionId: string | undefined,
    @CurrentPrincipal() principal: string,
    @CurrentKeyId() keyId: string,
    @Res() res: Response,
  ): Promise<void> {
    if (sessionId !== undefined && !ID_PATTERN.test(sessionId))
      throw new InvalidParamsError([{ field: 'X-Session-Id', message: 'must be a session id (ses_…)' }]);
    const request = parseDto(ChatCompletionRequest, body, 'chat completion request', { unknown: 'strip' });
    return this.openai.complete(request, sessionId, { principal, keyId }, res);
  }

  /** Other OpenAI endpoints (embeddings, the Responses API, …) are not served: a 404 in OpenAI's shape. */
  @All('*path')
  // @nestjs/swagger's ApiExcludeEndpoint, as plain metadata: the generator loads only on demand.
  @SetMetadata('swagger/apiExcludeEndpoint', { disable: true })
  unknown(@Req() req: Request): never {
    throw new AppError(
      'not_found',
      `${req.method} ${req.path} is not served: the OpenAI-compatible API has GET /v1/models and POST /v1/chat/completions`,
    );
  }
}
