import { Inject, Injectable } from '@nestjs/common';
import { type ChatMessage, foldHistory, historyTurns, type RunContext, windowHistory } from '@app/agent-core';
import { Logger } from '@app/observability';
import { type SessionRecord, SessionRepository } from '../store/session.repository';

/** Messages read per turn at most; older ones are in the summary or out of the window anyway. */
const MAX_LOADED = 200;

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
    const messages = await this.sessions.messagesAfter(session.id, session.summary_upto, MAX_LOADED);
    const lastSeq = messages.at(-1)?.seq ?? session.summary_upto;
    const { kept, folded } = windowHistory(messages, ctx.run.definition.context_window);
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
