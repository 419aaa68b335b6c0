/**
 * The model port: one interface for every model a run talks to. libs/llm implements it for the
 * OpenAI and Anthropic APIs; tests use the scripted client in `testing/`.
 */
export type ChatRole = 'system' | 'user' | 'assistant' | 'tool';

export interface NativeToolCall {
  id: string;
  name: string;
  arguments: Record<string, unknown>;
}

export interface ChatMessage {
  role: ChatRole;
  content: string;
  /** On an assistant message: the native tool calls it made. */
  toolCalls?: NativeToolCall[];
  /** On a tool message: the call it answers. */
  toolCallId?: string;
  name?: string;
}

export interface NativeTool {
  name: string;
  description: string;
  /** JSON schema of the arguments object. */
  parameters: Record<string, unknown>;
}

export interface CompletionRequest {
  model?: string;
  messages: ChatMessage[];
  tools?: NativeTool[];
  maxTokens?: number;
  temperature?: number;
  signal?: AbortSignal;
  /** When set, the reply is streamed and each text delta is passed here in order. */
  onDelta?: (text: string) => void;
  /**
   * Groups the requests that share a prompt prefix (a session's, else a run's) for the provider's
   * prompt cache: OpenAI's `prompt_cache_key`, where the provider takes one.
   */
  cacheKey?: string;
}

/** Why the model stopped writing (not why a run ended: that is the run's `FinishReason`). */
export type StopReason = 'stop' | 'tool_calls' | 'length' | 'content_filter' | 'other';

/**
 * As the provider billed the call: `prompt_tokens` counts the whole prompt, of which
 * `cached_prompt_tokens` were read from its prompt cache and `cache_write_tokens` written to it.
 */
export interface TokenUsage {
  prompt_tokens: number;
  completion_tokens: number;
  cached_prompt_tokens?: number;
  cache_write_tokens?: number;
}

export interface CompletionResult {
  text: string;
  toolCalls: NativeToolCall[];
  usage: TokenUsage;
  stopReason: StopReason;
  model: string;
  provider: string;
  elapsedMs: number;
}

export interface ModelClient {
  readonly name: string;
  readonly model: string;
  /** Resolves with the whole reply, or rejects (a `ModelError` for the failures it knows). */
  complete(request: CompletionRequest): Promise<CompletionResult>;
}
