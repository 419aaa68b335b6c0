import { callModel } from '../model/model-call';
import type { ChatMessage } from '../model/model-client';
import { contentCounted } from '../model/prompt-estimate';
import type { RunContext } from '../run-context';

export interface WindowMessage {
  role: 'user' | 'assistant';
  content: string;
  tokens: number;
}

/**
 * A session's history windowed to the model's context: the history may use half of
 * `context_window` (and hold `maxMessages`, when the host bounds what it reads); when it would
 * take more, the older turns are to be folded into the session's summary, down to half of that,
 * leaving room for many more turns before the next fold.
 *
 * Folding in steps, never sliding turn by turn, is what keeps a provider's prompt cache: between
 * two folds every turn's request starts with the previous turn's (the summary and the kept turns
 * unchanged, new turns appended), so only the turn after a fold pays its history uncached.
 */
export function windowHistory<M extends WindowMessage>(
  messages: M[],
  contextWindow: number,
  maxMessages = Number.POSITIVE_INFINITY,
): { kept: M[]; folded: M[] } {
  const budget = Math.floor(contextWindow / 2);
  if (tokensOf(messages) <= budget && messages.length <= maxMessages) return { kept: messages, folded: [] };
  return splitAt(messages, Math.floor(budget / 2), Math.floor(maxMessages / 2));
}

/** The turns the model sees: the summary of what was folded, then the kept messages. */
export function historyTurns(ctx: RunContext, summary: string | null, kept: WindowMessage[]): ChatMessage[] {
  const turns: ChatMessage[] = kept.map((m) => {
    const turn: ChatMessage = { role: m.role, content: m.content };
    contentCounted(turn, m.tokens);
    return turn;
  });
  return summary
    ? [{ role: 'system', content: ctx.prompts.render('history_summary_message', { summary }) }, ...turns]
    : turns;
}

/**
 * Folds older turns into a new summary with one model call of the run (traced as
 * `history_summary`); undefined when the model could not write one (the window still applies).
 */
export async function foldHistory(
  ctx: RunContext,
  previous: string | null,
  folded: WindowMessage[],
): Promise<{ summary: string } | { error: unknown } | undefined> {
  if (folded.length === 0) return undefined;
  const { run, prompts } = ctx;
  const transcript = folded.map((m) => `${m.role}: ${m.content}`).join('\n');
  const earlier = previous ? `Earlier summary:\n${previous}\n\n` : '';
  const request = prompts.render('history_summary_request');
  const started = performance.now();
  try {
    const result = await callModel(
      ctx,
      [
        { role: 'system', content: prompts.render('history_summary_instructions') },
        { role: 'user', content: `${request}\n\n${earlier}Conversation:\n${transcript}` },
      ],
      { deltas: 'none' },
    );
    run.addTrace({
      step: run.step,
      kind: 'history_summary',
      elapsed_ms: result.elapsedMs,
      tokens: { ...result.usage },
    });
    return { summary: result.text.trim() };
  } catch (err) {
    const elapsed_ms = Math.round(performance.now() - started);
    run.addTrace({ step: run.step, kind: 'history_summary', error: (err as Error).message, elapsed_ms });
    return { error: err };
  }
}

function tokensOf(messages: WindowMessage[]): number {
  return messages.reduce((sum, m) => sum + m.tokens, 0);
}

/** The newest messages that fit `keepTokens` and `keepMessages`, starting with a user turn (Anthropic needs one first). */
function splitAt<M extends WindowMessage>(
  messages: M[],
  keepTokens: number,
  keepMessages: number,
): { kept: M[]; folded: M[] } {
  let start = messages.length;
  let used = 0;
  const first = Math.max(0, messages.length - keepMessages);
  while (start > first && used + messages[start - 1].tokens <= keepTokens) used += messages[--start].tokens;
  while (start < messages.length && messages[start].role !== 'user') start++;
  return { kept: messages.slice(start), folded: messages.slice(0, start) };
}
