import type OpenAI from 'openai';
import type { ChatMessage, StopReason, NativeTool, NativeToolCall } from './llm-provider';
import { LlmError, requireToolCallId } from './llm.errors';

export function toOpenAiMessages(messages: ChatMessage[]): OpenAI.ChatCompletionMessageParam[] {
  return messages.map((message): OpenAI.ChatCompletionMessageParam => {
    switch (message.role) {
      case 'system':
        return { role: 'system', content: message.content };
      case 'user':
        return { role: 'user', content: message.content, ...(message.name ? { name: message.name } : {}) };
      case 'assistant':
        return toAssistantMessage(message);
      case 'tool':
        return { role: 'tool', tool_call_id: requireToolCallId(message), content: message.content };
    }
  });
}

function toAssistantMessage(message: ChatMessage): OpenAI.ChatCompletionAssistantMessageParam {
  const toolCalls = message.toolCalls ?? [];
  if (toolCalls.length === 0) return { role: 'assistant', content: message.content };
  return {
    role: 'assistant',
    content: message.content || null,
    tool_calls: toolCalls.map((call) => ({
      id: call.id,
      type: 'function',
      function: { name: call.name, arguments: JSON.stringify(call.arguments) },
    })),
  };
}

export function toOpenAiTools(tools: NativeTool[]): OpenAI.ChatCompletionFunctionTool[] {
  return tools.map((tool) => ({
    type: 'function',
    function: { name: tool.name, description: tool.description, parameters: tool.parameters },
  }));
}

/** Models do emit broken JSON; that is a bad response, reported with the tool's name. */
export function parseToolArguments(name: string, json: string): Record<string, unknown> {
  if (json.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    throw new LlmError('llm_bad_response', `the arguments of tool call ${name} are not valid JSON`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new LlmError('llm_bad_response', `the arguments of tool call ${name} are not a JSON object`);
  }
  return parsed as Record<string, unknown>;
}

export function toOpenAiToolCalls(
  calls: OpenAI.ChatCompletionMessageToolCall[] | undefined,
): NativeToolCall[] {
  return (calls ?? []).flatMap((call) =>
    call.type === 'function'
      ? [
          {
            id: call.id,
            name: call.function.name,
            arguments: parseToolArguments(call.function.name, call.function.arguments),
          },
        ]
      : [],
  );
}

const STOP_REASONS: Record<string, StopReason> = {
  stop: 'stop',
  tool_calls: 'tool_calls',
  function_call: 'tool_calls',
  length: 'length',
  content_filter: 'content_filter',
};

export function toStopReason(reason: string | null | undefined): StopReason {
  return STOP_REASONS[reason ?? ''] ?? 'other';
}
