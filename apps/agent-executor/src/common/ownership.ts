import { NotFoundError } from '@app/contracts';

/**
 * A principal sees only what it owns; anything else does not exist for it (a 404, not a 403, so
 * ids cannot be probed). No principal means authentication is off: everything is visible.
 */
export function requireOwner(what: string, id: string, owner: string, principal: string | undefined): void {
  if (principal && owner !== principal) throw new NotFoundError(what, id);
}
