import type {
  CompletionRequest,
  CompletionResult,
  ModelClient,
  NativeToolCall,
  TokenUsage,
} from '../model/model-client';

/** One scripted reply: text (and native tool calls), or an error the call rejects with. */
export type ScriptedReply =
  | string
  | {
      text?: string;
      toolCalls?: NativeToolCall[];
      usage?: TokenUsage;
    }
  | { error: Error };

/**
 * A model client that answers from a script, in order, and records every request: for tests and
 * examples of anything built on the run engine. Past the script it answers `done`.
 */
export class ScriptedModelClient implements ModelClient {
  readonly name = 'scripted';
  readonly model = 'scripted-model';
  readonly requests: CompletionRequest[] = [];
  private readonly replies: ScriptedReply[];

  constructor(
    replies: ScriptedReply[],
    private readonly options: {
      usage?: TokenUsage;
      /** Bills each call from its request (e.g. its worst case), unless the reply says otherwise. */
      billing?: (request: CompletionRequest) => TokenUsage;
    } = {},
  ) {
    this.replies = [...replies];
  }

  async complete(request: CompletionRequest): Promise<CompletionResult> {
    this.requests.push({ ...request, messages: [...request.messages] });
    if (request.signal?.aborted) throw new Error('aborted');
    const next = this.replies.shift() ?? 'done';
    if (typeof next === 'object' && 'error' in next) throw next.error;
    const reply = typeof next === 'string' ? { text: next } : next;
    const text = reply.text ?? '';
    if (request.onDelta && text) request.onDelta(text);
    return {
      text,
      toolCalls: reply.toolCalls ?? [],
      usage: reply.usage ??
        this.options.billing?.(request) ??
        this.options.usage ?? { prompt_tokens: 10, completion_tokens: 5 },
      stopReason: reply.toolCalls?.length ? 'tool_calls' : 'stop',
      model: this.model,
      provider: this.name,
      elapsedMs: 1,
    };
  }

  /** Replies not yet given. */
  get remaining(): number {
    return this.replies.length;
  }
}
