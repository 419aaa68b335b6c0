import { ID_PATTERN, NotFoundError } from '@app/contracts';

/** An id from a URL: one that could never have been issued names nothing, so it is a 404. */
export function resourceId(what: string, id: string): string {
  if (!ID_PATTERN.test(id)) throw new NotFoundError(what, id.slice(0, 64));
  return id;
}
