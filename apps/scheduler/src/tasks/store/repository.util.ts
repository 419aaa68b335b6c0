import { constraintViolation } from '@app/persistence';

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
