import type { FinishReason } from '@app/client';

export const EXIT_OK = 0;
export const EXIT_ERROR = 1;
/** The run stopped at a limit (steps, tool calls, tokens, time) or the model's output was unreadable. */
export const EXIT_LIMIT = 2;
/** The run holds a plan for approval. */
export const EXIT_AWAITING_APPROVAL = 3;
/** Ctrl-C, as shells report a process ended by SIGINT. */
export const EXIT_INTERRUPTED = 130;

const LIMITS: FinishReason[] = ['max_steps', 'max_tool_calls', 'budget', 'timeout', 'parse_error'];

export function exitCodeOf(reason: FinishReason): number {
  if (reason === 'final') return EXIT_OK;
  if (reason === 'awaiting_approval') return EXIT_AWAITING_APPROVAL;
  return LIMITS.includes(reason) ? EXIT_LIMIT : EXIT_ERROR;
}
