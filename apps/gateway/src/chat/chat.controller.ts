import { Body, Controller, Headers, Inject, Post, Res } from '@nestjs/common';
import type { Response } from 'express';
import { AGENT_SSE_EVENTS, AgentRunReply, ChatRequest, parseDto } from '@app/contracts';
import { CurrentRunCaller } from '../auth/principal.decorator';
import { idempotencyKeyOf } from '../common/idempotency-key';
import { type Caller, ChatService, closedEarly } from './chat.service';
import { ApiRoute } from '../common/openapi/api-route.decorator';

@Controller('api/v1/chat')
export class ChatController {
  constructor(@Inject(ChatService) private readonly chat: ChatService) {}

  /** JSON by default; SSE with `stream: true` or `Accept: text/event-stream`. */
  @Post()
  @ApiRoute({
    summary: 'One agent turn',
    description: 'JSON by default; server-sent events with `stream: true` or `Accept: text/event-stream`.',
    body: ChatRequest,
    response: AgentRunReply,
    status: 200,
    events: AGENT_SSE_EVENTS,
    headers: {
      'Idempotency-Key':
        'Makes the turn safe to retry: a request with the same key (per principal, for 24 h) and the same ' +
        'body gets the run the first one started (its stored answer once it has one; a stream follows it) ' +
        'instead of starting another. 1 to 255 visible ASCII characters.',
    },
    errors: {
      404: 'not_found: no such session (of this key) or agent',
      409: 'idempotency_conflict: the Idempotency-Key was used with another body; `details.idempotency_key` names it',
    },
  })
  async post(
    @Body() body: unknown,
    @Headers('accept') accept: string | undefined,
    @Headers('idempotency-key') idempotencyHeader: string | undefined,
    @CurrentRunCaller() caller: Caller,
    @Res() res: Response,
  ): Promise<void> {
    const request = parseDto(ChatRequest, body, 'chat request');
    const key = idempotencyKeyOf(idempotencyHeader);
    if (request.stream || wantsEventStream(accept)) return this.chat.stream(request, caller, res, key);
    res.status(200).json(await this.chat.chat(request, caller, closedEarly(res), key));
  }
}

export function wantsEventStream(accept: string | undefined): boolean {
  return accept?.includes('text/event-stream') ?? false;
}
