/**
 * One interface for every model the platform talks to. Providers are plain classes: the module
 * that owns them wraps them for Nest.
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

export type FinishReason = 'stop' | 'tool_calls' | 'length' | 'content_filter' | 'other';

export interface TokenUsage {
  prompt_tokens: number;
  completion_tokens: number;
}

export interface CompletionResult {
  text: string;
  toolCalls: NativeToolCall[];
  usage: TokenUsage;
  finishReason: FinishReason;
  model: string;
  provider: string;
  elapsedMs: number;
}

export interface LlmProvider {
  readonly name: string;
  readonly model: string;
  /** Resolves with the whole reply, or rejects with an LlmError. */
  complete(req: CompletionRequest): Promise<CompletionResult>;
}

export type LlmProviderKind = 'openai' | 'openai-compatible' | 'azure' | 'ollama' | 'anthropic';

export interface LlmProviderConfig {
  provider: LlmProviderKind;
  baseUrl?: string;
  apiKey?: string;
  model: string;
  /** Per HTTP attempt; a timed-out attempt is retried like a 5xx while retries remain. */
  timeoutMs: number;
  /** Retries on 408/409/429/5xx and connection errors, with exponential backoff and jitter. */
  maxRetries: number;
  maxTokens?: number;
  /** Model calls through this HTTP(S) proxy, except to hosts in `noProxy`. */
  proxy?: HttpProxy;
}

export interface HttpProxy {
  url: string;
  noProxy: string[];
}
