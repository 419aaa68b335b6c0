import type { PendingApproval } from '@app/client';

export type HeldCallChoice = { call: PendingApproval; rest: string[] } | { problem: string };

/**
 * The held call a `/approve` or `/reject` decides: the one its first word names by call id (or by
 * the id's `<step>:<index>` ending, easier to type), else the only one held; the words after it are
 * left in `rest` (a rejection's reason).
 */
export function chooseHeldCall(held: PendingApproval[], words: string[]): HeldCallChoice {
  const [first = ''] = words;
  const named = held.find(
    (call) => call.call_id === first || (/^\d+:\d+$/.test(first) && call.call_id.endsWith(`:${first}`)),
  );
  if (named) return { call: named, rest: words.slice(1) };
  if (held.length === 1) return { call: held[0], rest: words };
  return { problem: `${held.length} calls wait: name one of ${held.map((c) => c.call_id).join(', ')}` };
}

/** What to type next, after a turn that stopped on held calls. */
export function decideHint(held: PendingApproval[]): string {
  return held.length === 1
    ? '/approve runs it, /reject [reason…] refuses it'
    : '/approve <call_id> runs one, /reject <call_id> [reason…] refuses one';
}
