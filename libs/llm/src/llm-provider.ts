import type { ModelClient } from '@app/agent-core/portable';

/**
 * The model port's types are the run engine's (libs/agent-core); providers implement it as plain
 * classes, and the module that owns them wraps them for Nest.
 */
export type {
  ChatMessage,
  ChatRole,
  CompletionRequest,
  CompletionResult,
  NativeTool,
  NativeToolCall,
  StopReason,
  TokenUsage,
} from '@app/agent-core/portable';

/** A provider is the core's model port. */
export type LlmProvider = ModelClient;

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
  /**
   * The provider's prompt cache: Anthropic's `cache_control` breakpoints, OpenAI's
   * `prompt_cache_key`. `auto` (the default): breakpoints for Anthropic, the key for OpenAI's own
   * API and Azure (a compatible server may refuse a field it does not know); `on`: the key for any
   * OpenAI-compatible server too; `off`: neither.
   */
  promptCache?: PromptCacheMode;
}

export type PromptCacheMode = 'auto' | 'on' | 'off';

export interface HttpProxy {
  url: string;
  noProxy: string[];
}
