import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import type { PlatformConfig } from '@app/config';
import { Logger } from '@app/observability';
import type { ServiceState } from '@app/contracts';
import { HealthChecks, PLATFORM_CONFIG } from '@app/runtime';
import { createLlmProvider, type LlmProvider, type LlmProviderConfig, type LlmProviderKind } from '@app/llm';
import { InstrumentedLlmProvider } from './instrumented.provider';

/** The part of an agent profile that can pick its own model endpoint (config-file profiles only). */
export interface ModelChoice {
  provider?: LlmProviderKind;
  base_url?: string;
  api_key?: string;
}

/**
 * Hands out one provider per endpoint: the platform's (`LLM_*`) and any a config-file profile
 * names. Providers are built on first use, so a missing key fails the runs that need it, with
 * the setting named, instead of the whole service.
 */
@Injectable()
export class LlmRegistry implements OnApplicationBootstrap {
  private readonly providers = new Map<string, LlmProvider>();

  constructor(
    @Inject(PLATFORM_CONFIG) private readonly config: PlatformConfig,
    @Inject(Logger) private readonly logger: Logger,
    @Inject(HealthChecks) private readonly checks: HealthChecks,
  ) {}

  onApplicationBootstrap(): void {
    const { reason } = this.platformState();
    if (reason) this.logger.warn(`the LLM is not usable yet: ${reason}`);
    this.checks.describe('llm', () => this.platformState());
  }

  /**
   * Whether the platform's model (`LLM_*`) is configured: a key for a provider that checks one, a
   * base URL for a compatible server. Reachability is left to the runs: probing would cost tokens.
   */
  platformState(): ServiceState {
    try {
      this.forProfile({});
      return { state: 'ok' };
    } catch (err) {
      return { state: 'not configured', reason: (err as Error).message };
    }
  }

  /** Throws an Error naming the setting when the endpoint cannot work. */
  forProfile(choice: ModelChoice): LlmProvider {
    const settings = this.settingsFor(choice);
    const key = JSON.stringify([settings.provider, settings.baseUrl, settings.apiKey]);
    let provider = this.providers.get(key);
    if (!provider) {
      provider = new InstrumentedLlmProvider(createLlmProvider(settings), this.logger);
      this.providers.set(key, provider);
    }
    return provider;
  }

  private settingsFor(choice: ModelChoice): LlmProviderConfig {
    const llm = this.config.llm;
    const platform: LlmProviderConfig = {
      provider: llm.provider === 'custom' ? 'openai-compatible' : llm.provider,
      baseUrl: llm.base_url,
      apiKey: llm.api_key,
      model: llm.model,
      timeoutMs: llm.timeout,
      maxRetries: llm.max_retries,
      promptCache: llm.prompt_cache,
      ...(llm.proxy ? { proxy: { url: llm.proxy, noProxy: llm.no_proxy } } : {}),
    };
    if (!choice.provider && !choice.base_url && !choice.api_key) return platform;
    const sameEndpoint =
      (choice.provider ?? platform.provider) === platform.provider &&
      (choice.base_url ?? platform.baseUrl) === platform.baseUrl;
    return {
      ...platform,
      provider: choice.provider ?? platform.provider,
      baseUrl: choice.base_url ?? platform.baseUrl,
      // The platform's key only ever goes to the platform's endpoint.
      apiKey: choice.api_key ?? (sameEndpoint ? platform.apiKey : undefined),
    };
  }
}
