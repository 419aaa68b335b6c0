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
}

/** Why the model stopped writing (not why a run ended: that is the run's `FinishReason`). */
export type StopReason = 'stop' | 'tool_calls' | 'length' | 'content_filter' | 'other';

export interface TokenUsage {
  prompt_tokens: number;
  completion_tokens: number;
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
