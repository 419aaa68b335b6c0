import { BadRequestError, ID_PATTERN, NotFoundError } from '@app/contracts';

/** An id from a URL: one that could never have been issued names nothing, so it is a 404. */
export function resourceId(what: string, id: string): string {
  if (!ID_PATTERN.test(id)) throw new NotFoundError(what, id.slice(0, 64));
  return id;
}

/** An SSE event id a client sends back (`Last-Event-ID`): the place of a run's event, a whole number. */
export function eventIdOf(value: string | undefined): number {
  const text = value?.trim() ?? '';
  if (text === '') return 0;
  if (!/^\d{1,15}$/.test(text))
    throw new BadRequestError(
      `Last-Event-ID must be the id of one of the run's events, not '${text.slice(0, 32)}'`,
    );
  return Number(text);
}
