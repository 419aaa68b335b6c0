/** How one fire ended; `failed` carries the error the target reported or why it could not run. */
export interface FireOutcome {
  status: 'completed' | 'failed';
  result?: unknown;
  error?: string;
}

export const INTERRUPTED = 'interrupted';

/** What an interrupted fire is recorded as: its call's own record when there is one, else `unknown`. */
export interface InterruptedOutcome {
  status: 'completed' | 'failed' | 'unknown';
  error: string | null;
}

/** `call`: the function call's record (written from its provider's report), if any arrived. */
export function interruptedOutcome(
  call: { status: string; error: string | null } | null,
): InterruptedOutcome {
  if (!call)
    return {
      status: 'unknown',
      error: `${INTERRUPTED}: the scheduler stopped while the task ran, and no record says how it ended`,
    };
  if (call.status === 'success') return { status: 'completed', error: null };
  return { status: 'failed', error: `${INTERRUPTED}; the call's record says: ${call.error ?? call.status}` };
}
const MAX_STORED_CHARS = 64_000;

/** A result as stored in a text column: JSON, cut to a bounded size (a preview says so). */
export function storedResult(result: unknown): string | null {
  if (result === undefined) return null;
  const text = JSON.stringify(result) ?? null;
  if (text === null || text.length <= MAX_STORED_CHARS) return text;
  return JSON.stringify({ truncated: true, preview: text.slice(0, MAX_STORED_CHARS - 100) });
}
