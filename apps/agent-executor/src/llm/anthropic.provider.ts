import Anthropic from '@anthropic-ai/sdk';
import {
  fromAnthropicContent,
  toAnthropicConversation,
  toAnthropicTools,
  toFinishReason,
} from './anthropic-messages';
import type { CompletionRequest, CompletionResult, LlmProvider } from './llm-provider';
import { toLlmError } from './sdk-error.mapper';
import { createNodeHttpFetch } from './node-http-fetch';

export interface AnthropicProviderOptions {
  /** Without the trailing /v1: the SDK adds it. */
  baseUrl: string;
  apiKey: string;
  model: string;
  timeoutMs: number;
  maxRetries: number;
  /** Anthropic requires a limit on every request. */
  maxTokens: number;
}

/** Claude through the official SDK's Messages API. */
export class AnthropicProvider implements LlmProvider {
  readonly name = 'anthropic';
  readonly model: string;
  private readonly client: Anthropic;

  constructor(private readonly options: AnthropicProviderOptions) {
    this.model = options.model;
    this.client = new Anthropic({
      apiKey: options.apiKey,
      baseURL: options.baseUrl,
      timeout: options.timeoutMs,
      maxRetries: options.maxRetries,
      fetch: createNodeHttpFetch(),
    });
  }

  async complete(req: CompletionRequest): Promise<CompletionResult> {
    const started = performance.now();
    try {
      const message = req.onDelta ? await this.stream(req, req.onDelta) : await this.request(req);
      return {
        ...fromAnthropicContent(message.content),
        usage: { prompt_tokens: message.usage.input_tokens, completion_tokens: message.usage.output_tokens },
        finishReason: toFinishReason(message.stop_reason),
        model: message.model || this.model,
        provider: this.name,
        elapsedMs: Math.round(performance.now() - started),
      };
    } catch (error) {
      throw toLlmError(error, Anthropic, {
        provider: this.name,
        secrets: [this.options.apiKey],
        timeoutMs: this.options.timeoutMs,
        signal: req.signal,
      });
    }
  }

  /** `temperature` is not sent: the Messages API version this SDK speaks (2026-10-21) has none. */
  private params(req: CompletionRequest): Anthropic.MessageCreateParamsNonStreaming {
    return {
      model: req.model ?? this.model,
      max_tokens: req.maxTokens ?? this.options.maxTokens,
      ...toAnthropicConversation(req.messages),
      ...(req.tools?.length ? { tools: toAnthropicTools(req.tools) } : {}),
    };
  }

  private request(req: CompletionRequest): Promise<Anthropic.Message> {
    return this.client.messages.create(this.params(req), { signal: req.signal });
  }

  private stream(req: CompletionRequest, onDelta: (text: string) => void): Promise<Anthropic.Message> {
    const stream = this.client.messages.stream(this.params(req), { signal: req.signal });
    stream.on('text', (delta) => onDelta(delta));
    return stream.finalMessage();
  }
}
