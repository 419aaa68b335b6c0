import { Logger, Metrics, SpanKind, inSpan } from '@app/observability';
import {
  LlmError,
  type CompletionRequest,
  type CompletionResult,
  type LlmProvider,
  type TokenUsage,
} from '@app/llm';

/**
 * Every LLM call, whatever the provider: one span with the GenAI semantic-convention attributes,
 * the platform's LLM metrics (requests, latency, tokens) and one info log line without message contents.
 */
export class InstrumentedLlmProvider implements LlmProvider {
  constructor(
    private readonly inner: LlmProvider,
    private readonly logger: Logger,
  ) {}

  get name(): string {
    return this.inner.name;
  }

  get model(): string {
    return this.inner.model;
  }

  async complete(request: CompletionRequest): Promise<CompletionResult> {
    const model = request.model ?? this.inner.model;
    const labels = { provider: this.inner.name, model };
    const started = performance.now();
    const attributes = {
      'gen_ai.system': this.inner.name,
      'gen_ai.request.model': model,
      'gen_ai.operation.name': 'chat',
    };
    return inSpan(`chat ${model}`, { kind: SpanKind.CLIENT, attributes }, async (span) => {
      try {
        const result = await this.inner.complete(request);
        const seconds = (performance.now() - started) / 1000;
        Metrics.llmRequests().inc({ ...labels, status: 'ok' });
        Metrics.llmDuration().observe(labels, seconds);
        countTokens(labels, result.usage);
        span.setAttributes({
          'gen_ai.response.model': result.model,
          'gen_ai.usage.input_tokens': result.usage.prompt_tokens,
          'gen_ai.usage.output_tokens': result.usage.completion_tokens,
          'gen_ai.usage.cache_read.input_tokens': result.usage.cached_prompt_tokens ?? 0,
          'gen_ai.usage.cache_creation.input_tokens': result.usage.cache_write_tokens ?? 0,
          'gen_ai.response.finish_reasons': [result.stopReason],
        });
        // A line per model call is noise at volume (the metrics and the span carry the same); a failed one is a warning.
        this.logger.debug('llm call', {
          ...labels,
          prompt_tokens: result.usage.prompt_tokens,
          completion_tokens: result.usage.completion_tokens,
          ms: Math.round(seconds * 1000),
          stop: result.stopReason,
        });
        return result;
      } catch (err) {
        const code = err instanceof LlmError ? err.code : 'llm_error';
        Metrics.llmRequests().inc({ ...labels, status: code });
        Metrics.llmDuration().observe(labels, (performance.now() - started) / 1000);
        this.logger.warn('llm call failed', { ...labels, code, ms: Math.round(performance.now() - started) });
        throw err;
      }
    });
  }
}

/**
 * `ac_llm_tokens_total{type}`: `prompt` counts every prompt token; `cached_prompt` those of them
 * read from the provider's cache and `cache_write` those written to it (parts of `prompt`, not
 * added to it); `completion` the reply's.
 */
function countTokens(labels: { provider: string; model: string }, usage: TokenUsage): void {
  const tokens = Metrics.llmTokens();
  tokens.inc({ ...labels, type: 'prompt' }, usage.prompt_tokens);
  tokens.inc({ ...labels, type: 'completion' }, usage.completion_tokens);
  if (usage.cached_prompt_tokens)
    tokens.inc({ ...labels, type: 'cached_prompt' }, usage.cached_prompt_tokens);
  if (usage.cache_write_tokens) tokens.inc({ ...labels, type: 'cache_write' }, usage.cache_write_tokens);
}
