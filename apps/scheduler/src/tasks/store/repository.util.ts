import type { TaskTarget } from '@app/contracts';
import { constraintViolation } from '@app/persistence';
import type { TaskTargetSpec } from '../domain/task';

/** A unique-constraint violation, whichever database: for a fire, "already recorded". */
export function isUniqueViolation(err: unknown): boolean {
  return constraintViolation(err) === 'unique';
}

export const PAGE_SIZE = 500;

/** A window of a list: rows skipped, then at most `limit` rows. */
export interface TaskPage {
  offset: number;
  limit: number;
}

const INT_MAX = 2_147_483_647;

/** How late a fire started, in ms, clamped to the 32-bit column. */
export function latenessMs(now: Date, due: Date): number {
  return Math.max(-INT_MAX, Math.min(INT_MAX, now.getTime() - due.getTime()));
}

/** The columns a task's target is stored in, the same in both task tables. */
interface TargetColumns {
  target: string;
  function_name: string;
  params: string;
  agent: string | null;
  session_id: string | null;
  message: string | null;
  traceparent: string | null;
}

/** A task's target as read back from its row. */
export function targetOf(row: TargetColumns): TaskTargetSpec & { traceparent: string | null } {
  return {
    target: row.target as TaskTarget,
    function_name: row.function_name,
    params: row.params,
    agent: row.agent,
    session_id: row.session_id,
    message: row.message,
    traceparent: row.traceparent,
  };
}
