import type Anthropic from '@anthropic-ai/sdk';
import {
  fromAnthropicContent,
  markToolsBreakpoint,
  toAnthropicConversation,
  toAnthropicTools,
  toStopReason,
} from './anthropic-messages';
import type { CompletionRequest, CompletionResult, HttpProxy, LlmProvider } from './llm-provider';
import { toLlmError } from './sdk-error.mapper';
import { createSdkFetch } from './sdk-fetch';
import { fromAnthropicUsage } from './provider-usage';

export interface AnthropicProviderOptions {
  /** Without the trailing /v1: the SDK adds it. */
  baseUrl: string;
  apiKey: string;
  model: string;
  timeoutMs: number;
  maxRetries: number;
  /** Anthropic requires a limit on every request. */
  maxTokens: number;
  proxy?: HttpProxy;
  /** Prompt-cache breakpoints on every request (on unless false). */
  promptCache?: boolean;
}

type Sdk = typeof Anthropic;

/**
 * Claude through the official SDK's Messages API. The SDK is loaded on the first call: an
 * executor that only talks to OpenAI-compatible servers never pays its ~4.5 MB.
 */
export class AnthropicProvider implements LlmProvider {
  readonly name = 'anthropic';
  readonly model: string;
  private loaded?: Promise<{ sdk: Sdk; client: Anthropic }>;

  constructor(private readonly options: AnthropicProviderOptions) {
    this.model = options.model;
  }

  async complete(req: CompletionRequest): Promise<CompletionResult> {
    const started = performance.now();
    const { sdk, client } = await this.load();
    try {
      const message = req.onDelta
        ? await this.stream(client, req, req.onDelta)
        : await this.request(client, req);
      return {
        ...fromAnthropicContent(message.content),
        usage: fromAnthropicUsage(message.usage),
        stopReason: toStopReason(message.stop_reason),
        model: message.model || this.model,
        provider: this.name,
        elapsedMs: Math.round(performance.now() - started),
      };
    } catch (error) {
      throw toLlmError(error, sdk, {
        provider: this.name,
        secrets: [this.options.apiKey],
        timeoutMs: this.options.timeoutMs,
        signal: req.signal,
      });
    }
  }

  /**
   * `temperature` is not sent: the Messages API version this SDK speaks (2026-10-21) has none.
   * Prompt-cache breakpoints are placed unless `promptCache` is off (anthropic-messages.ts).
   */
  private params(req: CompletionRequest): Anthropic.MessageCreateParamsNonStreaming {
    const cache = this.options.promptCache !== false;
    const conversation = toAnthropicConversation(req.messages, { cache });
    const tools = req.tools?.length ? toAnthropicTools(req.tools) : undefined;
    return {
      model: req.model ?? this.model,
      max_tokens: req.maxTokens ?? this.options.maxTokens,
      ...conversation,
      ...(tools ? { tools: cache ? markToolsBreakpoint(tools, !!conversation.system) : tools } : {}),
    };
  }

  private load(): Promise<{ sdk: Sdk; client: Anthropic }> {
    this.loaded ??= import('@anthropic-ai/sdk').then((module) => {
      // The dynamic import is typed from the package's ESM face, the type import from its CJS one.
      const sdk = module.default as unknown as Sdk;
      const client = new sdk({
        apiKey: this.options.apiKey,
        baseURL: this.options.baseUrl,
        timeout: this.options.timeoutMs,
        maxRetries: this.options.maxRetries,
        fetch: createSdkFetch(this.options.proxy),
      });
      return { sdk, client };
    });
    return this.loaded;
  }

  private request(client: Anthropic, req: CompletionRequest): Promise<Anthropic.Message> {
    return client.messages.create(this.params(req), { signal: req.signal });
  }

  private stream(
    client: Anthropic,
    req: CompletionRequest,
    onDelta: (text: string) => void,
  ): Promise<Anthropic.Message> {
    const stream = client.messages.stream(this.params(req), { signal: req.signal });
    stream.on('text', (delta) => onDelta(delta));
    return stream.finalMessage();
  }
}
