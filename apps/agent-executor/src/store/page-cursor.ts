import { BadRequestError, DEFAULT_PAGE_SIZE, type Page } from '@app/contracts';

/** Where a page ended: the sort key of its last item, with the id to break ties. */
export interface PageCursor {
  at: Date;
  id: string;
}

export function encodeCursor({ at, id }: PageCursor): string {
  return Buffer.from(JSON.stringify([at.getTime(), id])).toString('base64url');
}

/** A cursor the caller altered or made up is a 400, never a wrong page. */
export function decodeCursor(cursor: string | undefined): PageCursor | undefined {
  if (!cursor) return undefined;
  try {
    const [ms, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown[];
    if (typeof ms === 'number' && Number.isFinite(ms) && typeof id === 'string')
      return { at: new Date(ms), id };
  } catch {
    // fall through to the error below
  }
  throw new BadRequestError('cursor: must be a next_cursor from a previous page');
}

/** Rows ordered by (at desc, id desc) after the cursor, as a Prisma `where` fragment. */
export function afterCursor<K extends string>(key: K, cursor: PageCursor | undefined) {
  if (!cursor) return {};
  return {
    OR: [{ [key]: { lt: cursor.at } }, { [key]: cursor.at, id: { lt: cursor.id } }],
  } as Record<string, unknown>;
}

/** One row more than the page was read, to know whether another page follows. */
export function toPage<R, T>(
  rows: R[],
  limit: number,
  view: (row: R) => T,
  keyOf: (row: R) => PageCursor,
): Page<T> {
  const more = rows.length > limit;
  const items = more ? rows.slice(0, limit) : rows;
  return {
    items: items.map(view),
    next_cursor: more ? encodeCursor(keyOf(items[items.length - 1])) : null,
  };
}

export function pageSize(limit: number | undefined): number {
  return limit ?? DEFAULT_PAGE_SIZE;
}
