import { Inject, Injectable } from '@nestjs/common';
import type { Response } from 'express';
import type { AgentProfileView, ChatCompletionRequest, OpenAiModel, OpenAiModelList } from '@app/contracts';
import { AgentsService } from '../agents/agents.service';
import { type Caller, ChatService, closedEarly } from '../chat/chat.service';
import { toRunRequest } from './openai-request';
import { toCompletion } from './openai-response';
import { ChatCompletionChunks } from './openai-stream';

/**
 * The OpenAI-compatible API over the platform's own: a model is an agent, a completion is one
 * chat turn (the same limits, quota and run path as `POST /api/v1/chat`), translated both ways.
 */
@Injectable()
export class OpenAiService {
  constructor(
    @Inject(ChatService) private readonly chat: ChatService,
    @Inject(AgentsService) private readonly agents: AgentsService,
  ) {}

  async models(): Promise<OpenAiModelList> {
    return { object: 'list', data: (await this.agents.list()).map(toModel) };
  }

  async model(name: string): Promise<OpenAiModel> {
    return toModel(await this.agents.get(name));
  }

  /** Answers on `res`: JSON, or `chat.completion.chunk` events. Both carry `X-Run-Id` and `X-Session-Id`. */
  async complete(body: ChatCompletionRequest, sessionId: string | undefined, caller: Caller, res: Response) {
    const request = toRunRequest(body, sessionId);
    if (body.stream) {
      const includeUsage = body.stream_options?.include_usage === true;
      return this.chat.streamTurn(
        request,
        caller,
        res,
        (runId) => new ChatCompletionChunks(runId, body.model, includeUsage),
      );
    }
    const reply = await this.chat.turn(request, caller, closedEarly(res));
    res.setHeader('x-run-id', reply.run_id);
    res.setHeader('x-session-id', reply.session_id);
    res.status(200).json(toCompletion(reply, body.model, Math.floor(Date.now() / 1000)));
  }
}

/** Agents have no creation time the API shows; `created` is 0, as some OpenAI-compatible servers do. */
function toModel(agent: AgentProfileView): OpenAiModel {
  return { id: agent.name, object: 'model', created: 0, owned_by: 'agentchassis' };
}
