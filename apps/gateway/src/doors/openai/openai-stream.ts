import type {
  AgentChassisStreamEvent,
  AgentEvent,
  AgentEventData,
  AgentRunReply,
  ChatCompletionChunk,
  ChatCompletionChunkChoice,
} from '@app/contracts';
import type { RunStreamFormat } from '../../common/event-stream';
import { openAiError } from './openai-error-shape';
import { completionId, FINISH_REASONS, runInfoOf, toolCallsOf, usageOf } from './openai-response';

/**
 * A run as `chat.completion.chunk` events, ending with `data: [DONE]`.
 *
 * The content is the final answer only, as in the non-streamed reply: a model step's text is
 * known to be the answer (not the thought before a function call) only when the step ends, so
 * the answer is sent when the run ends. Meanwhile what the agent does on the platform's side
 * (each step's text as it is written, thoughts, its function calls and their results, plans)
 * arrives on chunks with empty `choices` and an `agentchassis` field: never as `tool_calls`,
 * which a standard client would try to run. Only client tool calls are `tool_calls`.
 */
export class ChatCompletionChunks implements RunStreamFormat {
  private readonly id: string;

  constructor(
    private readonly runId: string,
    private readonly model: string,
    private readonly includeUsage: boolean,
    private readonly created = Math.floor(Date.now() / 1000),
  ) {
    this.id = completionId(runId);
  }

  headers(first: AgentEvent): Record<string, string> {
    const start = first.type === 'run_start' ? (first.data as AgentEventData['run_start']) : undefined;
    return { 'x-run-id': this.runId, ...(start ? { 'x-session-id': start.session_id } : {}) };
  }

  event(event: AgentEvent): string {
    switch (event.type) {
      case 'run_start':
        return this.chunk([this.choice({ role: 'assistant', content: '' })]);
      case 'delta':
        return this.extension({ event: 'delta', ...(event.data as AgentEventData['delta']) });
      case 'thought':
        return this.extension({ event: 'thought', ...(event.data as AgentEventData['thought']) });
      case 'tool_call': {
        const { args, ...call } = event.data as AgentEventData['tool_call'];
        return this.extension({ event: 'tool_call', ...call, arguments: args });
      }
      case 'tool_result':
        return this.extension({ event: 'tool_result', ...(event.data as AgentEventData['tool_result']) });
      case 'plan':
        return this.extension({ event: 'plan', plan: event.data });
      case 'step':
        return this.extension({ event: 'plan_step', step: event.data });
      default:
        return '';
    }
  }

  end(reply: AgentRunReply): string {
    const toolCalls = toolCallsOf(reply);
    const parts: string[] = [];
    if (reply.reply) parts.push(this.chunk([this.choice({ content: reply.reply })]));
    if (toolCalls.length > 0)
      parts.push(
        this.chunk([this.choice({ tool_calls: toolCalls.map((call, index) => ({ index, ...call })) })]),
      );
    parts.push(
      this.chunk([this.choice({}, FINISH_REASONS[reply.finish_reason])], {
        agentchassis: { event: 'run_end', ...runInfoOf(reply) },
      }),
    );
    if (this.includeUsage) parts.push(this.chunk([], { usage: usageOf(reply) }));
    return `${parts.join('')}data: [DONE]\n\n`;
  }

  /** The SDK's stream reader throws an `APIError` for an event carrying `error`. */
  error(err: unknown): string {
    return `data: ${JSON.stringify(openAiError(err).body)}\n\n`;
  }

  private extension(agentchassis: AgentChassisStreamEvent): string {
    return this.chunk([], { agentchassis });
  }

  private choice(
    delta: ChatCompletionChunkChoice['delta'],
    finishReason: ChatCompletionChunkChoice['finish_reason'] = null,
  ): ChatCompletionChunkChoice {
    return { index: 0, delta, finish_reason: finishReason, logprobs: null };
  }

  private chunk(choices: ChatCompletionChunkChoice[], extra: Partial<ChatCompletionChunk> = {}): string {
    const chunk: ChatCompletionChunk = {
      id: this.id,
      object: 'chat.completion.chunk',
      created: this.created,
      model: this.model,
      choices,
      ...extra,
    };
    return `data: ${JSON.stringify(chunk)}\n\n`;
  }
}
