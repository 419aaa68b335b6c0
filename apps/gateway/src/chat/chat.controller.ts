import { Body, Controller, Headers, Inject, Post, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { AGENT_SSE_EVENTS, AgentRunReply, ChatJoinedReply, ChatRequest, parseDto } from '@app/contracts';
import { AdmitsRun } from '../auth/admits-run.decorator';
import { CurrentRunCaller } from '../auth/principal.decorator';
import { closedEarly, sendEventStream } from '../common/event-stream';
import { idempotencyKeyOf } from '../common/idempotency-key';
import type { Caller } from './chat.service';
import { ChatRoutingService } from './chat-routing.service';
import { platformEvents } from './platform-events';
import { ApiRoute } from '../common/openapi/api-route.decorator';

@Controller('api/v1/chat')
export class ChatController {
  constructor(@Inject(ChatRoutingService) private readonly routing: ChatRoutingService) {}

  /** JSON by default; SSE with `stream: true` or `Accept: text/event-stream`. */
  @Post()
  @AdmitsRun(startsNewRun)
  @ApiRoute({
    summary: 'One agent turn',
    description: 'JSON by default; server-sent events with `stream: true` or `Accept: text/event-stream`.',
    body: ChatRequest,
    response: AgentRunReply,
    status: 200,
    events: AGENT_SSE_EVENTS,
    accepted: {
      description:
        'The message joined a running run (`run_id`, or `routing` with `session_id`): it reaches the model before ' +
        "the run's next model step. With SSE the run's stream is followed to its end instead.",
      response: ChatJoinedReply,
    },
    headers: {
      'Idempotency-Key':
        'Makes the turn safe to retry: a request with the same key (per principal, for 24 h) and the same ' +
        'body gets the run the first one started (its stored answer once it has one; a stream follows it) ' +
        'instead of starting another. 1 to 255 visible ASCII characters.',
    },
    errors: {
      404: 'not_found: no such session, run (of this key) or agent',
      409:
        'idempotency_conflict: the Idempotency-Key was used with another body (`details.idempotency_key` names it); ' +
        'conflict: the run named is paused (awaiting approval or tool results)',
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
    const outcome = await this.routing.post(request, caller, {
      stream: request.stream === true || wantsEventStream(accept),
      idempotencyKey: idempotencyKeyOf(idempotencyHeader),
      signal: closedEarly(res),
    });
    if (outcome.kind === 'events') return sendEventStream(res, outcome.events, platformEvents);
    if (outcome.kind === 'joined') res.status(202).json(outcome.joined);
    else res.status(200).json(outcome.reply);
  }
}

/** A message naming no run or session, without an Idempotency-Key: a new run, unless refused first. */
function startsNewRun(req: Request): boolean {
  const body = req.body as { run_id?: unknown; session_id?: unknown } | undefined;
  return !req.headers['idempotency-key'] && !body?.run_id && !body?.session_id;
}

export function wantsEventStream(accept: string | undefined): boolean {
  return accept?.includes('text/event-stream') ?? false;
}
