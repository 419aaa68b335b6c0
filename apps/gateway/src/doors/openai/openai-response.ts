import type {
  AgentChassisRunInfo,
  AgentRunReply,
  ChatCompletionResponse,
  FinishReason,
  OpenAiFinishReason,
  OpenAiToolCallOut,
  OpenAiUsage,
} from '@app/contracts';

/**
 * The platform's finish reasons in OpenAI's vocabulary (the README's table). A run stopped by a
 * limit is `length`; one that did not answer for another reason is `stop`, its reply saying why
 * and `agentchassis.finish_reason` telling which.
 */
export const FINISH_REASONS: Record<FinishReason, OpenAiFinishReason> = {
  final: 'stop',
  client_tool_calls: 'tool_calls',
  max_steps: 'length',
  max_tool_calls: 'length',
  budget: 'length',
  timeout: 'length',
  parse_error: 'stop',
  error: 'stop',
  cancelled: 'stop',
  rejected: 'stop',
  awaiting_approval: 'stop',
};

export function completionId(runId: string): string {
  return `chatcmpl-${runId}`;
}

export function usageOf(reply: AgentRunReply): OpenAiUsage {
  const { prompt_tokens, completion_tokens, cached_prompt_tokens } = reply.usage;
  return {
    prompt_tokens,
    completion_tokens,
    total_tokens: prompt_tokens + completion_tokens,
    // what the run's model calls read from the provider's prompt cache, as OpenAI reports it
    ...(cached_prompt_tokens ? { prompt_tokens_details: { cached_tokens: cached_prompt_tokens } } : {}),
  };
}

/** The run behind a completion, in the `agentchassis` extension field. */
export function runInfoOf(reply: AgentRunReply): AgentChassisRunInfo {
  return {
    run_id: reply.run_id,
    session_id: reply.session_id,
    finish_reason: reply.finish_reason,
    function_calls: reply.function_calls,
    ...(reply.usage.cost_usd === undefined ? {} : { cost_usd: reply.usage.cost_usd }),
  };
}

export function toolCallsOf(reply: AgentRunReply): OpenAiToolCallOut[] {
  return (reply.client_tool_calls ?? []).map((call) => ({
    id: call.id,
    type: 'function',
    function: { name: call.name, arguments: JSON.stringify(call.arguments) },
  }));
}

/** A run's reply as a `chat.completion`: the final answer, or the client tool calls it waits for. */
export function toCompletion(reply: AgentRunReply, model: string, created: number): ChatCompletionResponse {
  const toolCalls = toolCallsOf(reply);
  return {
    id: completionId(reply.run_id),
    object: 'chat.completion',
    created,
    model,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: toolCalls.length > 0 ? reply.reply || null : reply.reply,
          refusal: null,
          ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
        },
        finish_reason: FINISH_REASONS[reply.finish_reason],
        logprobs: null,
      },
    ],
    usage: usageOf(reply),
    agentchassis: runInfoOf(reply),
  };
}
