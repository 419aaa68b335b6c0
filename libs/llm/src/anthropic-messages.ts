import type Anthropic from '@anthropic-ai/sdk';
import type { ChatMessage, StopReason, NativeTool, NativeToolCall } from './llm-provider';
import { requireToolCallId } from './llm.errors';

type Block = Anthropic.ContentBlockParam;
type Turn = { role: 'user' | 'assistant'; content: Block[] };

/**
 * Anthropic's shape of a conversation: system prompts go to the top-level `system`, tool results
 * are `tool_result` blocks in a user turn, and consecutive turns of one role are merged into one.
 */
export function toAnthropicConversation(messages: ChatMessage[]): {
  system?: string;
  messages: Anthropic.MessageParam[];
} {
  const system = messages.filter((message) => message.role === 'system').map((message) => message.content);
  const turns: Turn[] = [];
  for (const message of messages) {
    if (message.role === 'system') continue;
    const role = message.role === 'assistant' ? 'assistant' : 'user';
    const blocks = toBlocks(message);
    const last = turns.at(-1);
    if (last?.role === role) last.content.push(...blocks);
    else turns.push({ role, content: blocks });
  }
  return { ...(system.length ? { system: system.join('\n\n') } : {}), messages: turns };
}

function toBlocks(message: ChatMessage): Block[] {
  if (message.role === 'tool') {
    return [{ type: 'tool_result', tool_use_id: requireToolCallId(message), content: message.content }];
  }
  // Anthropic refuses empty text blocks.
  const text: Block[] = message.content ? [{ type: 'text', text: message.content }] : [];
  const toolUses: Block[] = (message.toolCalls ?? []).map((call) => ({
    type: 'tool_use',
    id: call.id,
    name: call.name,
    input: call.arguments,
  }));
  return [...text, ...toolUses];
}

export function toAnthropicTools(tools: NativeTool[]): Anthropic.Tool[] {
  return tools.map((tool) => ({
    name: tool.name,
    description: tool.description,
    input_schema: { ...tool.parameters, type: 'object' },
  }));
}

export function fromAnthropicContent(content: Anthropic.ContentBlock[]): {
  text: string;
  toolCalls: NativeToolCall[];
} {
  let text = '';
  const toolCalls: NativeToolCall[] = [];
  for (const block of content) {
    if (block.type === 'text') text += block.text;
    if (block.type === 'tool_use') {
      toolCalls.push({ id: block.id, name: block.name, arguments: asObject(block.input) });
    }
  }
  return { text, toolCalls };
}

function asObject(input: unknown): Record<string, unknown> {
  return typeof input === 'object' && input !== null && !Array.isArray(input)
    ? (input as Record<string, unknown>)
    : {};
}

const STOP_REASONS: Partial<Record<Anthropic.StopReason, StopReason>> = {
  end_turn: 'stop',
  stop_sequence: 'stop',
  tool_use: 'tool_calls',
  max_tokens: 'length',
  model_context_window_exceeded: 'length',
  refusal: 'content_filter',
};

export function toStopReason(reason: Anthropic.StopReason | null): StopReason {
  return (reason && STOP_REASONS[reason]) || 'other';
}
