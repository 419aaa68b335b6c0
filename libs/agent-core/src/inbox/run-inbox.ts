import type { RunContext } from '../run-context';
import type { RunOutcome } from '../run-outcome';

/** Messages a caller added to a run while it runs; the run takes them before each model step. */
export interface RunInbox {
  /** Every message waiting, oldest first; each is handed out once. */
  take(): string[];
  /** Whether a message waits: a run about to answer takes another step to read it instead. */
  waiting(): boolean;
  /** The run reads no more (its last step began, or it ends): returns what still waits. */
  close(): string[];
}

/** An inbox in memory: what a host fills from wherever its callers' messages arrive. */
export class InMemoryRunInbox implements RunInbox {
  private pending: string[] = [];
  private closed = false;

  /** False once the run reads no more messages: the host refuses the message rather than drop it. */
  post(message: string): boolean {
    if (this.closed) return false;
    this.pending.push(message);
    return true;
  }

  take(): string[] {
    return this.pending.splice(0);
  }

  waiting(): boolean {
    return this.pending.length > 0;
  }

  close(): string[] {
    this.closed = true;
    return this.take();
  }
}

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
