import { Inject, Injectable } from '@nestjs/common';
import type {
  AgentProfileView,
  AgentRunReply,
  ChatCompletionRequest,
  ChatCompletionResponse,
  OpenAiModel,
  OpenAiModelList,
} from '@app/contracts';
import { AgentsService } from '../../agents/agents.service';
import { type Caller, ChatService, runIdFor } from '../../chat/chat.service';
import type { RunEvents } from '../../chat/run-events';
import { toRunRequest } from '../conversation';
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

  /** One turn as a `chat.completion`, with the run's reply (its ids for the response's headers). */
  async complete(
    body: ChatCompletionRequest,
    sessionId: string | undefined,
    caller: Caller,
    signal?: AbortSignal,
  ): Promise<{ reply: AgentRunReply; completion: ChatCompletionResponse }> {
    const reply = await this.chat.turn(toRunRequest(body, sessionId), caller, signal);
    return { reply, completion: toCompletion(reply, body.model, Math.floor(Date.now() / 1000)) };
  }

  /** One turn as its events, and the format that writes them as `chat.completion.chunk`s. */
  stream(
    body: ChatCompletionRequest,
    sessionId: string | undefined,
    caller: Caller,
    signal?: AbortSignal,
  ): { events: RunEvents; format: ChatCompletionChunks } {
    const request = toRunRequest(body, sessionId);
    const runId = runIdFor(request);
    const includeUsage = body.stream_options?.include_usage === true;
    return {
      events: this.chat.streamTurn({ ...request, run_id: runId }, caller, signal),
      format: new ChatCompletionChunks(runId, body.model, includeUsage),
    };
  }
}

/** Agents have no creation time the API shows; `created` is 0, as some OpenAI-compatible servers do. */
function toModel(agent: AgentProfileView): OpenAiModel {
  return { id: agent.name, object: 'model', created: 0, owned_by: 'agentchassis' };
}
