import type { RunContext } from '../run-context';
import type { RunOutcome } from '../run-outcome';

// Apart from run-inbox.ts, which the run's context holds: this one takes the context, and the two
// in one file made an import circle.
/** A run that stops this way is taken up again later, and can still read a message. */
const PAUSES = new Set<RunOutcome['finishReason']>(['awaiting_approval', 'client_tool_calls']);

/**
 * The run's work is over: its inbox closes, and what still waits there (a message that came as
 * the run ended) is not lost. A paused run journals it for the model step it resumes with; a run
 * that ended keeps it in its trace, marked unread (the session keeps it too).
 */
export async function settleInbox(ctx: RunContext, outcome: RunOutcome): Promise<void> {
  const { run } = ctx;
  const left = ctx.inbox?.close() ?? [];
  const journal = ctx.journal?.userMessageReceived?.bind(ctx.journal);
  for (const text of left) {
    if (PAUSES.has(outcome.finishReason) && journal) {
      await journal(run, { step: run.step + 1, text });
      continue;
    }
    run.addTrace({
      step: run.step,
      kind: 'user_message',
      message: text,
      error: `not read: the run ended (${outcome.finishReason}) before another step`,
      elapsed_ms: 0,
    });
  }
}
