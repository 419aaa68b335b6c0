import { AppError, hasScope, type Scope } from '@app/contracts';

/** Who calls a task route: the key's principal owns what it creates; its scopes say whose tasks it sees. */
export interface TaskCaller {
  principal: string;
  scopes: Scope[];
  /** The key creating a task: the agent runs it fires count against that key's limits. */
  keyId: string;
}

/**
 * The owner a list is filtered by: an admin sees every principal's tasks, or one's with `?owner=`;
 * anyone else sees only their own, and asking for another's is refused.
 */
export function listOwner(caller: TaskCaller, requested?: string): string | undefined {
  if (hasScope(caller.scopes, 'admin')) return requested;
  if (requested !== undefined && requested !== caller.principal) {
    throw new AppError('forbidden', "only an admin key may list another principal's tasks");
  }
  return caller.principal;
}

/**
 * The owner a task looked up by name must have: none for an admin (names are unique across owners,
 * so a name picks one task), the caller's principal for anyone else (another's task is not found).
 */
export function nameOwner(caller: TaskCaller): string | undefined {
  return hasScope(caller.scopes, 'admin') ? undefined : caller.principal;
}
