import type { ParsedReply } from './types';

/** An unreadable reply: the problem, and the repair message `repair` (a `{error}` template) makes of it. */
export function invalidReply(repair: string, problem: string): ParsedReply {
  return { kind: 'invalid', error: repair.replace('{error}', () => problem), problem };
}
