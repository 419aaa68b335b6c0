import { Inject, Injectable } from '@nestjs/common';
import type { Response } from 'express';
import { Bus } from '@app/bus';
import { type ChatJoinedReply, type ChatRequest, type MessageRouteReply, Routes } from '@app/contracts';
import { UsageLimits } from '@app/limits';
import { type Caller, ChatService, closedEarly } from './chat.service';
import type { RoutedChat } from './turn-request';

/**
 * `POST /api/v1/chat`: a message naming a run, or a session with a run going, is routed first
 * (`agent.messages.route`). Joined, it is answered 202 at once, or with SSE the run's stream is
 * followed to its end; otherwise it is a turn of its own, told where it came from.
 */
@Injectable()
export class ChatRoutingService {
  constructor(
    @Inject(Bus) private readonly bus: Bus,
    @Inject(ChatService) private readonly chat: ChatService,
    @Inject(UsageLimits) private readonly limits: UsageLimits,
  ) {}

  async post(request: ChatRequest, caller: Caller, res: Response, stream: boolean, key?: string) {
    const routed = await this.route(request, caller);
    if (routed.usage) this.limits.charge(caller, routed.usage);
    if (routed.action === 'joined' && routed.run_id) {
      if (stream) return this.chat.followStream(routed.run_id, caller, res);
      const joined: ChatJoinedReply = {
        run_id: routed.run_id,
        session_id: routed.session_id ?? '',
        status: 'joined',
      };
      res.status(202).json(joined);
      return;
    }
    const turn = turnOf(request, routed);
    if (stream) return this.chat.stream(turn, caller, res, key);
    res.status(200).json(await this.chat.chat(turn, caller, closedEarly(res), key));
  }

  /** A message with neither a run nor a session is a new run's: no need to ask. */
  private route(request: ChatRequest, caller: Caller): Promise<MessageRouteReply> {
    const { message, run_id, session_id, routing } = request;
    if (!run_id && !session_id) return Promise.resolve({ action: 'new' });
    return this.bus.request(Routes.agentMessageRoute, {
      message,
      ...(run_id ? { run_id } : {}),
      ...(session_id ? { session_id } : {}),
      ...(routing ? { routing } : {}),
      ...(caller.principal ? { principal: caller.principal } : {}),
    });
  }
}

function turnOf(request: ChatRequest, routed: MessageRouteReply): RoutedChat {
  const { run_id: _run, routing: _routing, ...rest } = request;
  return {
    ...rest,
    ...(routed.session_id ? { session_id: routed.session_id } : {}),
    ...(routed.context ? { instructions: routed.context } : {}),
    ...(routed.decision ? { routing_decision: routed.decision } : {}),
  };
}
