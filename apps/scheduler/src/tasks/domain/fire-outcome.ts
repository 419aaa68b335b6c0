/**
 * How one fire ended; `failed` carries the error the target reported or why it could not run,
 * `refused` why it was not run at all (the task's key was revoked or deleted); `final` when no later
 * fire of the task could run either, so a cron stops rather than be refused at every tick.
 */
export interface FireOutcome {
  status: 'completed' | 'failed' | 'refused';
  result?: unknown;
  error?: string;
  final?: boolean;
}

export const INTERRUPTED = 'interrupted';

/** What an interrupted fire is recorded as: its call's own record when there is one, else `unknown`. */
export interface InterruptedOutcome {
  status: 'completed' | 'failed' | 'unknown';
  error: string | null;
}

/** How a function call ended, as its record (written from its provider's report) says. */
export interface CallRecordOutcome {
  status: string;
  error: string | null;
}

/** `call`: the fire's function-call record, if any arrived. */
export function interruptedOutcome(call: CallRecordOutcome | null): InterruptedOutcome {
  if (!call)
    return {
      status: 'unknown',
      error: `${INTERRUPTED}: the scheduler stopped while the task ran, and no record says how it ended`,
    };
  if (call.status === 'success') return { status: 'completed', error: null };
  return { status: 'failed', error: `${INTERRUPTED}; the call's record says: ${call.error ?? call.status}` };
}
