import { Inject, Injectable } from '@nestjs/common';
import { Logger } from '@app/observability';
import type { ChatMessage } from '@app/llm';
import { ModelCallerService } from '../model/model-caller.service';
import type { RunState } from '../runs/run-state';
import { type SessionRecord, SessionRepository, type StoredMessage } from './session.repository';

/** Messages read per turn at most; older ones are in the summary or out of the window anyway. */
const MAX_LOADED = 200;

export const SUMMARY_REQUEST = 'Summarise this conversation so an assistant can continue it.';
const SUMMARY_INSTRUCTIONS =
  'You write summaries of conversations. Keep facts, names, numbers, decisions and open questions; drop small talk. At most 200 words.';

/**
 * A session's history for the next turn, windowed to the model's context: the history may use
 * half of `context_window`; when it would take more, the older turns are folded into the
 * session's summary by one LLM call, leaving room for a few more turns before the next fold.
 */
@Injectable()
export class SessionHistoryService {
  constructor(
    @Inject(SessionRepository) private readonly sessions: SessionRepository,
    @Inject(ModelCallerService) private readonly model: ModelCallerService,
    @Inject(Logger) private readonly logger: Logger,
  ) {}

  async load(run: RunState, session: SessionRecord): Promise<ChatMessage[]> {
    const messages = await this.sessions.messagesAfter(session.id, session.summary_upto, MAX_LOADED);
    run.sessionLastSeq = messages.at(-1)?.seq ?? session.summary_upto;
    const budget = Math.floor(run.profile.context_window / 2);
    let summary = session.summary;
    let kept = messages;
    if (tokensOf(messages) > budget) {
      const split = splitAt(messages, Math.floor(budget / 2));
      kept = split.kept;
      summary = (await this.fold(run, session, summary, split.folded)) ?? summary;
    }
    const turns: ChatMessage[] = kept.map((m) => ({ role: m.role, content: m.content }));
    return summary
      ? [{ role: 'system', content: `Summary of the earlier conversation:\n${summary}` }, ...turns]
      : turns;
  }

  /** Returns the new summary, or undefined when the model could not write one (the window still applies). */
  private async fold(
    run: RunState,
    session: SessionRecord,
    previous: string | null,
    folded: StoredMessage[],
  ): Promise<string | undefined> {
    if (folded.length === 0) return undefined;
    const transcript = folded.map((m) => `${m.role}: ${m.content}`).join('\n');
    const earlier = previous ? `Earlier summary:\n${previous}\n\n` : '';
    const started = performance.now();
    try {
      const result = await this.model.complete(
        run,
        [
          { role: 'system', content: SUMMARY_INSTRUCTIONS },
          { role: 'user', content: `${SUMMARY_REQUEST}\n\n${earlier}Conversation:\n${transcript}` },
        ],
        { deltas: 'none' },
      );
      run.trace.push({
        step: run.step,
        kind: 'history_summary',
        elapsed_ms: result.elapsedMs,
        tokens: { ...result.usage },
      });
      await this.sessions.saveSummary(session.id, result.text.trim(), folded[folded.length - 1].seq);
      return result.text.trim();
    } catch (err) {
      const elapsed_ms = Math.round(performance.now() - started);
      run.trace.push({ step: run.step, kind: 'history_summary', error: (err as Error).message, elapsed_ms });
      this.logger.warn('could not summarise a session history; older turns are left out', {
        session_id: session.id,
        err,
      });
      return undefined;
    }
  }
}

function tokensOf(messages: StoredMessage[]): number {
  return messages.reduce((sum, m) => sum + m.tokens, 0);
}

/** The newest messages that fit `keepTokens`, starting with a user turn (Anthropic needs one first). */
function splitAt(
  messages: StoredMessage[],
  keepTokens: number,
): { kept: StoredMessage[]; folded: StoredMessage[] } {
  let start = messages.length;
  let used = 0;
  while (start > 0 && used + messages[start - 1].tokens <= keepTokens) used += messages[--start].tokens;
  while (start < messages.length && messages[start].role !== 'user') start++;
  return { kept: messages.slice(start), folded: messages.slice(0, start) };
}
