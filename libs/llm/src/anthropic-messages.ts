import type Anthropic from '@anthropic-ai/sdk';
import type { ChatMessage, StopReason, NativeTool, NativeToolCall } from './llm-provider';
import { requireToolCallId } from './llm.errors';

/** The blocks this platform sends: text, its tool calls and their results (each may carry a cache mark). */
type Block = Anthropic.TextBlockParam | Anthropic.ToolUseBlockParam | Anthropic.ToolResultBlockParam;
type Turn = { role: 'user' | 'assistant'; content: Block[] };
type CacheControlled = { cache_control?: Anthropic.CacheControlEphemeral | null };

const BREAKPOINT: Anthropic.CacheControlEphemeral = { type: 'ephemeral' };

/**
 * Anthropic's shape of a conversation: system prompts go to the top-level `system` (one text
 * block each, in order), tool results are `tool_result` blocks in a user turn, and consecutive
 * turns of one role are merged into one.
 *
 * With `cache`, prompt-cache breakpoints mark the longest prefixes the next requests can reuse
 * (Anthropic caches only up to a `cache_control` mark): the first system block (with the tools
 * before it: the agent's stable prompt, shared by all its conversations), the end of the previous
 * request (the turn before the last assistant turn, where the prior request of this run or session
 * ended, so it is read back whatever the distance), and the end of this one (for the next request).
 * Three of the four marks a request may carry.
 */
export function toAnthropicConversation(
  messages: ChatMessage[],
  options: { cache?: boolean } = {},
): {
  system?: Anthropic.TextBlockParam[];
  messages: Anthropic.MessageParam[];
} {
  const system: Anthropic.TextBlockParam[] = messages
    .filter((message) => message.role === 'system' && message.content)
    .map((message) => ({ type: 'text', text: message.content }));
  const turns: Turn[] = [];
  for (const message of messages) {
    if (message.role === 'system') continue;
    const role = message.role === 'assistant' ? 'assistant' : 'user';
    const blocks = toBlocks(message);
    const last = turns.at(-1);
    if (last?.role === role) last.content.push(...blocks);
    else turns.push({ role, content: blocks });
  }
  if (options.cache) markBreakpoints(system, turns);
  return { ...(system.length ? { system } : {}), messages: turns };
}

function markBreakpoints(system: Anthropic.TextBlockParam[], turns: Turn[]): void {
  if (system.length > 0) mark(system[0]);
  const lastAssistant = turns.findLastIndex((turn) => turn.role === 'assistant');
  if (lastAssistant > 0) mark(turns[lastAssistant - 1].content.at(-1));
  mark(turns.at(-1)?.content.at(-1));
}

function mark(block: CacheControlled | undefined): void {
  if (block) block.cache_control = BREAKPOINT;
}

/** Tools come first in Anthropic's prefix: without a system prompt, the last tool carries the first mark. */
export function markToolsBreakpoint(tools: Anthropic.Tool[], hasSystem: boolean): Anthropic.Tool[] {
  if (hasSystem || tools.length === 0) return tools;
  return [...tools.slice(0, -1), { ...tools[tools.length - 1], cache_control: BREAKPOINT }];
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
