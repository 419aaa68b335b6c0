import { describe, expect, it } from 'vitest';
import type { AgentRunReply } from '@app/contracts';
import { usageOf as anthropicUsage } from './anthropic/anthropic-response';
import { usageOf as chatUsage } from './openai/openai-response';
import { usageOf as responsesUsage } from './openai/responses-resource';

const reply = (usage: AgentRunReply['usage']): AgentRunReply => ({
  session_id: 'ses_1',
  run_id: 'run_1',
  reply: 'ok',
  function_calls: [],
  finish_reason: 'final',
  usage,
});

describe("the doors tell each client the run's prompt cache in its own provider's fields", () => {
  const cached = reply({
    prompt_tokens: 5_000,
    completion_tokens: 40,
    cached_prompt_tokens: 4_096,
    cache_write_tokens: 640,
  });

  it('Chat Completions: prompt_tokens_details.cached_tokens, only when some were cached', () => {
    expect(chatUsage(cached)).toEqual({
      prompt_tokens: 5_000,
      completion_tokens: 40,
      total_tokens: 5_040,
      prompt_tokens_details: { cached_tokens: 4_096 },
    });
    expect(chatUsage(reply({ prompt_tokens: 10, completion_tokens: 5 }))).not.toHaveProperty(
      'prompt_tokens_details',
    );
  });

  it('Responses: input_tokens_details.cached_tokens', () => {
    expect(responsesUsage(cached)).toMatchObject({
      input_tokens: 5_000,
      input_tokens_details: { cached_tokens: 4_096 },
    });
  });

  it('Anthropic Messages: reads and writes apart from input_tokens, as Anthropic counts them', () => {
    expect(anthropicUsage(cached)).toEqual({
      input_tokens: 264,
      output_tokens: 40,
      cache_read_input_tokens: 4_096,
      cache_creation_input_tokens: 640,
    });
  });
});
