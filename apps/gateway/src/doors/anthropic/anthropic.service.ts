import { Inject, Injectable } from '@nestjs/common';
import type { AnthropicMessage, AnthropicMessagesRequest } from '@app/contracts';
import { type Caller, ChatService, runIdFor } from '../../chat/chat.service';
import type { RunEvents } from '../../chat/run-events';
import { toAnthropicRun } from './anthropic-request';
import { toAnthropicMessage } from './anthropic-response';
import { AnthropicEvents } from './anthropic-stream';

/**
 * Anthropic's Messages API over the platform's runs: a model is an agent, a message is one turn
 * (the same limits, quota and run path as `POST /api/v1/chat`), translated both ways.
 */
@Injectable()
export class AnthropicService {
  constructor(@Inject(ChatService) private readonly chat: ChatService) {}

  async create(
    body: AnthropicMessagesRequest,
    sessionId: string | undefined,
    caller: Caller,
    signal?: AbortSignal,
  ): Promise<AnthropicMessage> {
    const reply = await this.chat.turn(toAnthropicRun(body, sessionId), caller, signal);
    return toAnthropicMessage(reply, body.model);
  }

  stream(
    body: AnthropicMessagesRequest,
    sessionId: string | undefined,
    caller: Caller,
    signal?: AbortSignal,
  ): { events: RunEvents; format: AnthropicEvents } {
    const request = toAnthropicRun(body, sessionId);
    const runId = runIdFor(request);
    return {
      events: this.chat.streamTurn({ ...request, run_id: runId }, caller, signal),
      format: new AnthropicEvents(runId, body.model),
    };
  }
}
