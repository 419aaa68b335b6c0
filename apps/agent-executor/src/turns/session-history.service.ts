import { Inject, Injectable } from '@nestjs/common';
import { type ChatMessage, foldHistory, historyTurns, type RunContext, windowHistory } from '@app/agent-core';
import { Logger } from '@app/observability';
import { type SessionRecord, SessionRepository } from '../store/session.repository';

/**
 * Messages a turn's history holds at most: past it, the older ones are folded into the summary
 * down to half as many (as past half the context window), never dropped one turn at a time, which
 * would change the prompt's history every turn and lose the provider's prompt cache with it.
 */
const MAX_HISTORY = 200;
/** What a fold reads at most (a fold that failed for long leaves more: the oldest are then left out). */
const MAX_FOLDED_READ = 2_000;

/**
 * A session's stored history for the next turn, windowed to the model's context by the run
 * engine (libs/agent-core session/history-window.ts): older turns folded into the session's
 * summary by one model call of the run, the summary saved with the last message it covers.
 */
@Injectable()
export class SessionHistoryService {
  constructor(
    @Inject(SessionRepository) private readonly sessions: SessionRepository,
    @Inject(Logger) private readonly logger: Logger,
  ) {}

  /** The turns to send before the new message, and the session's last message as read. */
  async load(ctx: RunContext, session: SessionRecord): Promise<{ messages: ChatMessage[]; lastSeq: number }> {
    let messages = await this.sessions.messagesAfter(session.id, session.summary_upto, MAX_HISTORY + 1);
    // a fold is due: it needs the messages older than the window, which the usual read leaves out
    if (messages.length > MAX_HISTORY)
      messages = await this.sessions.messagesAfter(session.id, session.summary_upto, MAX_FOLDED_READ);
    const lastSeq = messages.at(-1)?.seq ?? session.summary_upto;
    const { kept, folded } = windowHistory(messages, ctx.run.definition.context_window, MAX_HISTORY);
    let summary = session.summary;
    const fold = await foldHistory(ctx, summary, folded);
    if (fold && 'summary' in fold) {
      summary = fold.summary;
      await this.sessions.saveSummary(session.id, summary, folded[folded.length - 1].seq);
    } else if (fold) {
      this.logger.warn('could not summarise a session history; older turns are left out', {
        session_id: session.id,
        err: fold.error,
      });
    }
    return { messages: historyTurns(ctx, summary, kept), lastSeq };
  }
}
