import type OpenAI from 'openai';
import type { CompletionRequest, CompletionResult, HttpProxy, LlmProvider } from './llm-provider';
import { LlmError } from './llm.errors';
import { createSdkFetch } from './sdk-fetch';
import { toStopReason, toOpenAiMessages, toOpenAiTools, toOpenAiToolCalls } from './openai-messages';
import { OpenAiStreamAssembler } from './openai-stream.assembler';
import { toLlmError } from './sdk-error.mapper';
import { fromOpenAiUsage } from './provider-usage';

export interface OpenAiProviderOptions {
  name: string;
  baseUrl: string;
  apiKey: string;
  model: string;
  timeoutMs: number;
  maxRetries: number;
  maxTokens?: number;
  /** OpenAI's own API wants `max_completion_tokens`; compatible servers know `max_tokens`. */
  maxTokensField: 'max_tokens' | 'max_completion_tokens';
  defaultHeaders?: Record<string, string>;
  proxy?: HttpProxy;
  /** Sends the request's cache key as `prompt_cache_key` (OpenAI's own API and Azure take it; not every compatible server does). */
  promptCacheKey?: boolean;
}

type Reply = Omit<CompletionResult, 'elapsedMs' | 'provider'>;
type Sdk = typeof OpenAI;

/**
 * OpenAI and every server that speaks its Chat Completions API, through the official SDK. The SDK
 * is loaded on the first call: a process that holds a model it has not called yet (an idle
 * embedded agent) does not carry its ~10 MB.
 */
export class OpenAiProvider implements LlmProvider {
  readonly name: string;
  readonly model: string;
  private loaded?: Promise<{ sdk: Sdk; client: OpenAI }>;

  constructor(private readonly options: OpenAiProviderOptions) {
    this.name = options.name;
    this.model = options.model;
  }

  async complete(req: CompletionRequest): Promise<CompletionResult> {
    const started = performance.now();
    const { sdk, client } = await this.load();
    try {
      const reply = req.onDelta
        ? await this.stream(sdk, client, req, req.onDelta)
        : await this.request(client, req);
      return { ...reply, provider: this.name, elapsedMs: Math.round(performance.now() - started) };
    } catch (error) {
      throw toLlmError(error, sdk, {
        provider: this.name,
        secrets: [this.options.apiKey],
        timeoutMs: this.options.timeoutMs,
        signal: req.signal,
      });
    }
  }

  private load(): Promise<{ sdk: Sdk; client: OpenAI }> {
    this.loaded ??= import('openai').then((module) => {
      const sdk = module.default as unknown as Sdk;
      const client = new sdk({
        apiKey: this.options.apiKey,
        baseURL: this.options.baseUrl,
        timeout: this.options.timeoutMs,
        maxRetries: this.options.maxRetries,
        defaultHeaders: this.options.defaultHeaders,
        fetch: createSdkFetch(this.options.proxy),
      });
      return { sdk, client };
    });
    return this.loaded;
  }

  private params(req: CompletionRequest): OpenAI.ChatCompletionCreateParamsNonStreaming {
    const maxTokens = req.maxTokens ?? this.options.maxTokens;
    return {
      model: req.model ?? this.model,
      messages: toOpenAiMessages(req.messages),
      ...(req.tools?.length ? { tools: toOpenAiTools(req.tools) } : {}),
      ...(maxTokens !== undefined ? { [this.options.maxTokensField]: maxTokens } : {}),
      ...(req.temperature !== undefined ? { temperature: req.temperature } : {}),
      ...(this.options.promptCacheKey && req.cacheKey
        ? { prompt_cache_key: promptCacheKey(req.cacheKey) }
        : {}),
    };
  }

  private async request(client: OpenAI, req: CompletionRequest): Promise<Reply> {
    const completion = await client.chat.completions.create(this.params(req), { signal: req.signal });
    const choice = completion.choices?.[0];
    if (!choice) throw new LlmError('llm_bad_response', `${this.name}: the reply has no choices`);
    return {
      text: choice.message.content ?? '',
      toolCalls: toOpenAiToolCalls(choice.message.tool_calls),
      stopReason: toStopReason(choice.finish_reason),
      usage: fromOpenAiUsage(completion.usage),
      model: completion.model || this.model,
    };
  }

  private async stream(
    sdk: Sdk,
    client: OpenAI,
    req: CompletionRequest,
    onDelta: (text: string) => void,
  ): Promise<Reply> {
    const stream = await client.chat.completions.create(
      { ...this.params(req), stream: true, stream_options: { include_usage: true } },
      { signal: req.signal },
    );
    const assembler = new OpenAiStreamAssembler();
    for await (const chunk of stream) {
      const text = assembler.add(chunk);
      if (text) onDelta(text);
    }
    // The SDK ends the iteration quietly when the caller aborts mid-stream.
    if (req.signal?.aborted) throw new sdk.APIUserAbortError();
    const { finishReason, ...reply } = assembler.result();
    if (finishReason === null) {
      throw new LlmError('llm_bad_response', `${this.name}: the stream ended before the reply was complete`);
    }
    return { ...reply, stopReason: toStopReason(finishReason), model: reply.model || this.model };
  }
}

/**
 * The provider groups requests by this key to find their cached prefix; it is a session's or a
 * run's id, sent hashed (the provider needs it stable, not readable), 32 characters. node:crypto is
 * taken at the first request, as the SDK is: a provider made and not called yet does not load it.
 */
function promptCacheKey(key: string): string {
  const { createHash } = process.getBuiltinModule('node:crypto');
  return createHash('sha256').update(key).digest('base64url').slice(0, 32);
}
