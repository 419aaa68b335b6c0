import { Inject, Injectable } from '@nestjs/common';
import { Bus } from '@app/bus';
import {
  type AgentRunReply,
  type ChatJoinedReply,
  type ChatRequest,
  type MessageRouteReply,
  Routes,
} from '@app/contracts';
import { UsageLimits } from '@app/limits';
import { type Caller, ChatService } from './chat.service';
import type { RunEvents } from './run-events';
import type { RoutedChat } from './turn-request';

/** What a chat message became: joined to a running run, a turn's reply, or a run's events. */
export type ChatOutcome =
  | { kind: 'joined'; joined: ChatJoinedReply }
  | { kind: 'reply'; reply: AgentRunReply }
  | { kind: 'events'; events: RunEvents };

export interface ChatOptions {
  stream: boolean;
  idempotencyKey?: string;
  /** Aborts when the caller goes away. */
  signal?: AbortSignal;
}

/**
 * `POST /api/v1/chat`: a message naming a run, or a session with a run going, is routed first
 * (`agent.messages.route`). Joined, it is answered at once, or with a stream the run's events are
 * followed to its end; otherwise it is a turn of its own, told where it came from.
 */
@Injectable()
export class ChatRoutingService {
  constructor(
    @Inject(Bus) private readonly bus: Bus,
    @Inject(ChatService) private readonly chat: ChatService,
    @Inject(UsageLimits) private readonly limits: UsageLimits,
  ) {}

  async post(request: ChatRequest, caller: Caller, options: ChatOptions): Promise<ChatOutcome> {
    const { stream, idempotencyKey, signal } = options;
    const routed = await this.route(request, caller);
    if (routed.usage) this.limits.charge(caller, routed.usage);
    if (routed.action === 'joined' && routed.run_id) {
      if (stream) return { kind: 'events', events: this.chat.follow(routed.run_id, caller) };
      const joined: ChatJoinedReply = {
        run_id: routed.run_id,
        session_id: routed.session_id ?? '',
        status: 'joined',
      };
      return { kind: 'joined', joined };
    }
    const turn = turnOf(request, routed);
    if (stream) return { kind: 'events', events: this.chat.stream(turn, caller, signal, idempotencyKey) };
    return { kind: 'reply', reply: await this.chat.chat(turn, caller, signal, idempotencyKey) };
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
