import type { CallerDto, HookContext } from '@app/contracts';

export interface HookRequest {
  context: HookContext;
  /** The hook's own deadline; the target gives up when it aborts. */
  signal: AbortSignal;
  timeoutMs: number;
  /** The run's caller, as a tool call carries it (scopes included). */
  caller: CallerDto;
}

/** Where a hook goes: a platform function or a webhook. Resolves with the reply; rejects on failure. */
export interface HookTarget {
  /** `function:<name>`, or the webhook's origin and path (never its query, which may hold a token). */
  readonly label: string;
  call(request: HookRequest): Promise<unknown>;
}

/** The hook failed (its target's error, or its reply made no sense). */
export class HookCallError extends Error {
  override name = 'HookCallError';
}
