export type {
  ChatMessage,
  ChatRole,
  CompletionRequest,
  CompletionResult,
  HttpProxy,
  LlmProvider,
  LlmProviderConfig,
  LlmProviderKind,
  PromptCacheMode,
  NativeTool,
  NativeToolCall,
  StopReason,
  TokenUsage,
} from './llm-provider';
export { LlmError, type LlmErrorCode } from './llm.errors';
export { createLlmProvider, PLACEHOLDER_API_KEY } from './llm-provider.factory';
export { OpenAiProvider, type OpenAiProviderOptions } from './openai.provider';
export { AnthropicProvider, type AnthropicProviderOptions } from './anthropic.provider';
