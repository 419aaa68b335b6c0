import { type ChatMessage, historyTurns, type RunContext, windowHistory } from '@app/agent-core';
import type { AgentProfile } from '../agents/agent-profile';
import type { RunRecord } from '../store/run.repository';
import type { SessionRepository, StoredMessage } from '../store/session.repository';

/** History messages read to rebuild or fork a run, at most (as a turn reads). */
const MAX_HISTORY = 200;

/** The session's messages before a run's own, and its summary when that covers only messages from before the run. */
export async function historyBefore(
  sessions: SessionRepository,
  record: Pick<RunRecord, 'id' | 'input' | 'created_at' | 'session_id'>,
): Promise<{ summary: string | null; messages: StoredMessage[] }> {
  const session = record.session_id ? await sessions.find(record.session_id) : null;
  if (!session) return { summary: null, messages: [] };
  const before = await sessions.messagesBeforeRun(session.id, record, MAX_HISTORY);
  const lastBefore = before.at(-1)?.seq ?? 0;
  const summary = session.summary && session.summary_upto <= lastBefore ? session.summary : null;
  return { summary, messages: summary ? before.filter((m) => m.seq > session.summary_upto) : before };
}

/**
 * That history as the run's model reads it: windowed to the profile's context, the summary first.
 * Nothing is folded (folding asks a model): what no longer fits is left out.
 */
export function historyMessages(
  ctx: RunContext,
  profile: AgentProfile,
  history: { summary: string | null; messages: StoredMessage[] },
): ChatMessage[] {
  return historyTurns(ctx, history.summary, windowHistory(history.messages, profile.context_window).kept);
}
