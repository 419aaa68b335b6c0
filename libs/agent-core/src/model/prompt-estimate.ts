import { countTokens } from '@app/protocol/portable';
import type { ChatMessage, CompletionRequest, NativeTool } from './model-client';

// Chat-format overheads (OpenAI's): each message opens with a few tokens and its role, each tool call
// adds a few, the reply is primed with 3. Rounded up: an estimate that reserves must not fall short.
const MESSAGE_OVERHEAD = 4;
const TOOL_CALL_OVERHEAD = 3;
const REPLY_PRIMING = 3;

/** Each message's count, kept: a run's messages are appended, never changed, so each is counted once. */
const counted = new WeakMap<ChatMessage, number>();
const countedTools = new WeakMap<NativeTool[], number>();

/**
 * The prompt tokens a request will be billed, counted with the model's tokenizer (o200k_base unless
 * the model is an older OpenAI one): its messages, their tool calls and the tool definitions. A
 * provider with another tokenizer (Anthropic's) may count some more; what a call really cost is
 * settled from the provider's usage.
 */
export function promptTokensOf(request: CompletionRequest): number {
  let total = REPLY_PRIMING + toolTokens(request.tools, request.model);
  for (const message of request.messages) total += messageTokens(message, request.model);
  return total;
}

/**
 * A message whose content was counted already (a session's stored messages carry their count, made
 * with the model of the turn that stored them): the estimate takes that count instead of counting
 * the whole history again every turn. A count of 0 (an empty message, or one stored uncounted) is
 * counted here as any other.
 */
export function contentCounted(message: ChatMessage, contentTokens: number): void {
  if (contentTokens > 0 && !message.toolCalls?.length) counted.set(message, MESSAGE_OVERHEAD + contentTokens);
}

function messageTokens(message: ChatMessage, model: string | undefined): number {
  let tokens = counted.get(message);
  if (tokens === undefined) {
    tokens = MESSAGE_OVERHEAD + countTokens(message.content, model);
    for (const call of message.toolCalls ?? [])
      tokens +=
        TOOL_CALL_OVERHEAD +
        countTokens(call.name, model) +
        countTokens(JSON.stringify(call.arguments), model);
    counted.set(message, tokens);
  }
  return tokens;
}

function toolTokens(tools: NativeTool[] | undefined, model: string | undefined): number {
  if (!tools?.length) return 0;
  let tokens = countedTools.get(tools);
  if (tokens === undefined) {
    tokens = countTokens(JSON.stringify(tools), model);
    countedTools.set(tools, tokens);
  }
  return tokens;
}
