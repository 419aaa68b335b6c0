import type {
  AgentRunReply,
  AnthropicMessage,
  AnthropicStopReason,
  AnthropicUsage,
  FinishReason,
} from '@app/contracts';

const STOP_REASONS: Record<FinishReason, AnthropicStopReason> = {
  final: 'end_turn',
  client_tool_calls: 'tool_use',
  awaiting_approval: 'end_turn',
  rejected: 'end_turn',
  cancelled: 'end_turn',
  max_steps: 'max_tokens',
  max_tool_calls: 'max_tokens',
  budget: 'max_tokens',
  timeout: 'max_tokens',
  parse_error: 'end_turn',
  error: 'end_turn',
};

export function messageId(runId: string): string {
  return `msg_${runId.replace(/^run_/, '')}`;
}

/**
 * The blocks a run's reply shows the caller: the text the model wrote (before it called the
 * caller's tools, a block of its own) and the calls of the caller's tools.
 */
export function contentOf(reply: AgentRunReply): Record<string, unknown>[] {
  return [
    ...(reply.reply ? [{ type: 'text', text: reply.reply }] : []),
    ...(reply.client_tool_calls ?? []).map((call) => ({
      type: 'tool_use',
      id: call.id,
      name: call.name,
      input: call.arguments,
    })),
  ];
}

export function stopReasonOf(reply: AgentRunReply): AnthropicStopReason {
  return STOP_REASONS[reply.finish_reason];
}

/** As Anthropic counts: `input_tokens` are the prompt's tokens neither read from the cache nor written to it. */
export function usageOf(reply: AgentRunReply): AnthropicUsage {
  const cached = reply.usage.cached_prompt_tokens ?? 0;
  const written = reply.usage.cache_write_tokens ?? 0;
  return {
    input_tokens: Math.max(0, reply.usage.prompt_tokens - cached - written),
    output_tokens: reply.usage.completion_tokens,
    cache_creation_input_tokens: written,
    cache_read_input_tokens: cached,
  };
}

/** What the platform adds: the run, its session and finish reason, and calls held for approval. */
export function runInfoOf(reply: AgentRunReply): Record<string, unknown> {
  return {
    run_id: reply.run_id,
    session_id: reply.session_id,
    finish_reason: reply.finish_reason,
    ...(reply.usage.cost_usd !== undefined ? { cost_usd: reply.usage.cost_usd } : {}),
    ...(reply.approvals?.length ? { approvals: reply.approvals } : {}),
  };
}

export function toAnthropicMessage(reply: AgentRunReply, model: string): AnthropicMessage {
  return {
    id: messageId(reply.run_id),
    type: 'message',
    role: 'assistant',
    model,
    content: contentOf(reply),
    stop_reason: stopReasonOf(reply),
    stop_sequence: null,
    usage: usageOf(reply),
    agentchassis: runInfoOf(reply),
  };
}
