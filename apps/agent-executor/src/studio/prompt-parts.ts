import type { ChatMessage, CompletionRequest, ModelStepEntry } from '@app/agent-core';
import type { PromptMessage, PromptPart, PromptSection, StepMessagesView } from '@app/contracts';
import { countTokens } from '@app/protocol';

/** Where the conversation a run started with lies in a request: its history, then the run's message. */
export interface Opening {
  /** Messages of history (the summary's included) before the run's own message. */
  history: number;
  /** Messages the caller added while the run ran: a user message with one of these texts is one. */
  added: string[];
}

type Redact = (text: string) => string;

/**
 * A captured model request as the studio shows it: each message with the part of the
 * conversation it is and its tokens by the model's tokenizer, the system prompt split into the
 * agent's instructions, the calling guide and the functions section, and the tokens of each part
 * added up. Known secrets are masked first (and tokens counted on what is shown).
 */
export function promptView(
  request: CompletionRequest,
  reply: ModelStepEntry,
  opening: Opening,
  about: { runId: string; agent: string; protocol: string; instructions: string },
  redact: Redact,
): StepMessagesView {
  const model = request.model || undefined;
  let redacted = false;
  const mask = (text: string) => {
    const masked = redact(text);
    if (masked !== text) redacted = true;
    return masked;
  };
  const messages = request.messages.map((message, i) =>
    promptMessage(message, partOf(message, i, opening), mask, model, about.instructions),
  );
  const tokens_by_part: StepMessagesView['tokens_by_part'] = {};
  for (const m of messages) tokens_by_part[m.part] = (tokens_by_part[m.part] ?? 0) + m.tokens;
  const tools = request.tools?.length ? maskJson(request.tools, mask) : undefined;
  const toolsTokens = tools ? countTokens(JSON.stringify(tools), model) : undefined;
  if (toolsTokens !== undefined) tokens_by_part.tools = toolsTokens;
  return {
    run_id: about.runId,
    step: reply.step,
    agent: about.agent,
    ...(model ? { model } : {}),
    protocol: about.protocol,
    messages,
    ...(tools ? { tools, tools_tokens: toolsTokens } : {}),
    tokens_by_part,
    reply: {
      text: mask(reply.text),
      tool_calls: reply.toolCalls.map((c) => ({ ...c, arguments: maskJson(c.arguments, mask) })),
      prompt_tokens: reply.usage.prompt_tokens,
      completion_tokens: reply.usage.completion_tokens,
      ...(cachedOf(reply) ? { cached_prompt_tokens: cachedOf(reply) } : {}),
      elapsed_ms: reply.elapsedMs,
    },
    redacted,
  };
}

/**
 * The part a message is: the system prompt first; a second system message is the history's
 * summary; then the history; the run's message; after it, the model's replies, function results
 * (the `<result>` elements, or native tool messages), messages the caller added, and the
 * platform's repair prompts after an unreadable reply.
 */
export function partOf(message: ChatMessage, index: number, opening: Opening): PromptPart {
  if (index === 0 && message.role === 'system') return 'system';
  if (message.role === 'system') return 'summary';
  if (index <= opening.history) return 'history';
  if (index === opening.history + 1 && message.role === 'user') return 'input';
  if (message.role === 'assistant') return 'assistant';
  if (message.role === 'tool' || message.content.trimStart().startsWith('<result ')) return 'result';
  return opening.added.includes(message.content) ? 'message' : 'repair';
}

function promptMessage(
  message: ChatMessage,
  part: PromptPart,
  mask: Redact,
  model: string | undefined,
  instructions: string,
): PromptMessage {
  const content = mask(message.content);
  return {
    role: message.role as PromptMessage['role'],
    part,
    content,
    tokens: countTokens(content, model),
    ...(message.toolCalls?.length
      ? { tool_calls: message.toolCalls.map((c) => ({ ...c, arguments: maskJson(c.arguments, mask) })) }
      : {}),
    ...(message.toolCallId ? { tool_call_id: message.toolCallId } : {}),
    ...(part === 'system' ? { sections: systemSections(content, mask(instructions), model) } : {}),
  };
}

/**
 * The system prompt as the prompt builder writes it: the agent's instructions, the calling
 * guide, then the functions section (from its `## Functions` heading on). Tokens are counted per
 * piece, so they add up to the message's within a token or two of the joins.
 */
export function systemSections(content: string, instructions: string, model?: string): PromptSection[] {
  const opening = instructions.trim();
  const start = opening && content.startsWith(opening) ? opening.length : 0;
  const at = content.lastIndexOf('## Functions');
  const catalog = at >= start ? content.slice(at) : '';
  const guide = content.slice(start, at >= start ? at : content.length).trim();
  const sections: PromptSection[] = [];
  if (start > 0) sections.push({ name: 'instructions', tokens: countTokens(opening, model) });
  if (guide) sections.push({ name: 'guide', tokens: countTokens(guide, model) });
  if (catalog) sections.push({ name: 'functions', tokens: countTokens(catalog, model) });
  return sections;
}

/** A JSON value with its secrets masked; one a mask would break is withheld whole. */
function maskJson<T>(value: T, mask: Redact): T {
  const text = JSON.stringify(value);
  const masked = mask(text);
  if (masked === text) return value;
  try {
    return JSON.parse(masked) as T;
  } catch {
    return { withheld: 'it held a secret' } as T;
  }
}

/** Cached prompt tokens, where the provider reported them. */
function cachedOf(entry: ModelStepEntry): number | undefined {
  return (entry.usage as { cached_prompt_tokens?: number }).cached_prompt_tokens;
}
