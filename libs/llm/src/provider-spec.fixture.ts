import { startScriptedLlm, type ScriptedLlm } from '@app/testing';
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import type { LlmProviderConfig } from './llm-provider';
import { createLlmProvider } from './llm-provider.factory';
import { LlmError } from './llm.errors';

/**
 * A provider spec's world: the scripted model server for the file (requests cleared before each
 * test; its prompt cache emulated, so real token counts) and providers of one kind pointed at it.
 */
export function scriptedProviders(defaults: Pick<LlmProviderConfig, 'provider' | 'apiKey' | 'model'>) {
  let llm: ScriptedLlm | undefined;
  beforeAll(async () => {
    llm = await startScriptedLlm({ promptCache: true });
  });
  afterAll(() => llm?.close());
  beforeEach(() => llm?.clearRequests());
  return {
    get llm(): ScriptedLlm {
      if (!llm) throw new Error('the scripted model starts in beforeAll');
      return llm;
    },
    provider(overrides: Partial<LlmProviderConfig> = {}) {
      return createLlmProvider({
        ...defaults,
        baseUrl: this.llm.url,
        timeoutMs: 5_000,
        maxRetries: 0,
        ...overrides,
      });
    },
  };
}

/** The LlmError a call failed with (the spec fails if it succeeded or threw something else). */
export async function failureOf(promise: Promise<unknown>): Promise<LlmError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(LlmError);
  return error as LlmError;
}

/** About 1,500 tokens of instructions: a prompt long enough for a provider to cache. */
export const LONG_INSTRUCTIONS = Array.from({ length: 300 }, (_, i) => `Rule ${i}: answer exactly.`).join(
  '\n',
);
