import type { Route } from '@app/contracts';
import type { CallOptions } from './bus.types';

/** The sooner of the caller's limit (or else the route's timeout) and the caller's deadline. */
export function timeoutOf(route: Route, options?: CallOptions): number {
  const limit = options?.timeoutMs ?? route.timeoutMs ?? Infinity;
  const left = options?.deadline === undefined ? Infinity : options.deadline - Date.now();
  const timeoutMs = Math.min(limit, left);
  if (timeoutMs === Infinity) throw new TypeError(`a request on '${route.subject}' needs a deadline`);
  return Math.max(1, timeoutMs);
}
