import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { contentText } from './content-text';

/**
 * One piece of a prompt as a provider renders it, in order: a tool definition, a system block, a
 * message's opening, a content block. `breakpoint`: the client marked the piece's end as a cache
 * breakpoint (Anthropic's `cache_control`).
 */
export interface PromptPiece {
  tokens: number[];
  breakpoint?: boolean;
}

// Chat-format overheads, as in gpt-tokenizer's estimator of OpenAI requests and bench/protocol's
// counts: each message opens with 3 tokens and its role, each tool call adds 3, the reply is
// primed with 3: the opening of the assistant message it becomes, so the next request, which holds
// that message, starts with this whole one. Stand-in token ids: they only need to be the same on
// every request.
const MESSAGE_OPENING = [-1, -2, -3];
const TOOL_CALL_OPENING = [-4, -5, -6];
const REPLY_PRIMING = MESSAGE_OPENING;

const tokens = (text: string): number[] => (text ? encode(text) : []);

/**
 * An OpenAI Chat Completions request as its prompt's pieces: the `tools` array as sent (its JSON),
 * then every message (role, content, tool calls as name and JSON arguments), then the priming of
 * the reply: the same counting bench/protocol uses for JSON function calling and for ours.
 */
export function openAiPromptPieces(body: Record<string, unknown>): PromptPiece[] {
  const pieces: PromptPiece[] = [];
  if (Array.isArray(body['tools']) && body['tools'].length > 0)
    pieces.push({ tokens: tokens(JSON.stringify(body['tools'])) });
  for (const message of (body['messages'] as Record<string, unknown>[] | undefined) ?? []) {
    pieces.push({ tokens: [...MESSAGE_OPENING, ...tokens(String(message['role'] ?? ''))] });
    pieces.push({ tokens: tokens(contentText(message['content'])) });
    for (const call of (message['tool_calls'] as Record<string, unknown>[] | undefined) ?? []) {
      const fn = (call['function'] ?? {}) as { name?: string; arguments?: string };
      pieces.push({
        tokens: [...TOOL_CALL_OPENING, ...tokens(fn.name ?? ''), ...tokens(fn.arguments ?? '')],
      });
    }
  }
  pieces.push({ tokens: REPLY_PRIMING });
  return pieces;
}

type Block = Record<string, unknown> & { cache_control?: unknown };

/**
 * An Anthropic Messages request as its prompt's pieces, in the order Anthropic caches them: tools,
 * then system, then messages; each block one piece, carrying its `cache_control` mark. A top-level
 * `cache_control` marks the last block.
 */
export function anthropicPromptPieces(body: Record<string, unknown>): PromptPiece[] {
  const pieces: PromptPiece[] = [];
  for (const tool of (body['tools'] as Block[] | undefined) ?? []) {
    const { cache_control, ...definition } = tool;
    pieces.push({ tokens: tokens(JSON.stringify(definition)), breakpoint: !!cache_control });
  }
  const system = body['system'];
  const systemBlocks: Block[] =
    typeof system === 'string' ? [{ type: 'text', text: system }] : ((system as Block[] | undefined) ?? []);
  for (const block of systemBlocks) pieces.push(blockPiece(block));
  for (const message of (body['messages'] as Record<string, unknown>[] | undefined) ?? []) {
    pieces.push({ tokens: [...MESSAGE_OPENING, ...tokens(String(message['role'] ?? ''))] });
    const content = message['content'];
    const blocks: Block[] =
      typeof content === 'string' ? [{ type: 'text', text: content }] : ((content as Block[]) ?? []);
    for (const block of blocks) pieces.push(blockPiece(block));
  }
  if (body['cache_control']) {
    const last = pieces.at(-1);
    if (last) last.breakpoint = true;
  }
  pieces.push({ tokens: REPLY_PRIMING });
  return pieces;
}

function blockPiece(block: Block): PromptPiece {
  const breakpoint = !!block.cache_control;
  if (block['type'] === 'tool_use')
    return {
      tokens: [
        ...TOOL_CALL_OPENING,
        ...tokens(String(block['name'] ?? '')),
        ...tokens(JSON.stringify(block['input'] ?? {})),
      ],
      breakpoint,
    };
  if (block['type'] === 'tool_result') return { tokens: tokens(contentText(block['content'])), breakpoint };
  return { tokens: tokens(typeof block['text'] === 'string' ? block['text'] : ''), breakpoint };
}

/** A reply's tokens as the same counting sees them: its text, each tool call's name and JSON arguments. */
export function replyTokens(reply: {
  text: string;
  toolCalls: { name: string; arguments: unknown }[];
}): number {
  return reply.toolCalls.reduce(
    (sum, call) =>
      sum +
      TOOL_CALL_OPENING.length +
      tokens(call.name).length +
      tokens(JSON.stringify(call.arguments)).length,
    tokens(reply.text).length,
  );
}
