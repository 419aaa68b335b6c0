import { setOwn } from './records';

type Row = Record<string, unknown>;

/** What a table cell holds where its row has no such field; said in `<data absent="~">`. */
export const ABSENT = '~';

/**
 * Rows of one kind whose fields vary (log entries, events: a field present in some rows only,
 * an object such as `error: {code, retry}` in a few) as one table: the union of the fields as
 * columns, an object's fields as `parent.child` columns, and `~` in a cell whose row lacks the
 * field. JSON says every key in every row; TOON has no table for such rows. Only offered when
 * `expandRows` gives the rows back exactly (no key with a dot, no `~` among the values, no empty
 * object, the rows' keys in one order), so the table is lossless by construction.
 */
export function flattenRows(value: unknown): Row[] | undefined {
  if (!Array.isArray(value) || value.length < 2 || !value.every(isPlainObject)) return undefined;
  const rows = value as Row[];
  const columns = columnsOf(rows);
  if (!columns || columns.length * rows.length > MAX_CELLS_PER_FIELD * fieldCount(rows)) return undefined;
  const flat = rows.map((row) => {
    const out: Row = {};
    for (const column of columns) setOwn(out, column, cellOf(row, column));
    return out;
  });
  const holdsAbsent = flat.some((row) => Object.values(row).includes(ABSENT));
  if (!holdsAbsent && !columns.some((column) => column.includes('.'))) return undefined;
  return JSON.stringify(expandRows(flat)) === JSON.stringify(rows) ? flat : undefined;
}

/**
 * Rows of different kinds (or maps keyed by id) would make a table of mostly `~`, and a candidate
 * as large as that is costly just to count: at most half the cells may be absent.
 */
const MAX_CELLS_PER_FIELD = 2;

function fieldCount(rows: Row[]): number {
  let count = 0;
  for (const row of rows)
    for (const value of Object.values(row)) count += isPlainObject(value) ? Object.keys(value).length : 1;
  return count;
}

/** The inverse of `flattenRows`: `~` cells dropped, `parent.child` columns put back in `parent`. */
export function expandRows(rows: Row[]): Row[] {
  return rows.map((row) => {
    const out: Row = {};
    for (const [column, cell] of Object.entries(row)) {
      if (cell === ABSENT) continue;
      const dot = column.indexOf('.');
      if (dot < 0) {
        setOwn(out, column, cell);
        continue;
      }
      const parent = column.slice(0, dot);
      if (!Object.hasOwn(out, parent)) setOwn(out, parent, {});
      setOwn(out[parent] as Row, column.slice(dot + 1), cell);
    }
    return out;
  });
}

/** The columns in first-seen order; undefined when a key has a dot or a field is not flat enough. */
function columnsOf(rows: Row[]): string[] | undefined {
  const columns: string[] = [];
  for (const row of rows) {
    for (const [key, value] of Object.entries(row)) {
      if (key.includes('.') || key === '') return undefined;
      if (isPlainObject(value)) {
        const children = Object.entries(value);
        if (children.length === 0) return undefined;
        for (const [child, item] of children) {
          if (child.includes('.') || child === '' || !isPrimitive(item)) return undefined;
          addOnce(columns, `${key}.${child}`);
        }
      } else if (isPrimitive(value)) addOnce(columns, key);
      else return undefined;
    }
  }
  const objects = new Set(columns.filter((c) => c.includes('.')).map((c) => c.slice(0, c.indexOf('.'))));
  return columns.some((column) => objects.has(column)) ? undefined : columns;
}

function cellOf(row: Row, column: string): unknown {
  const dot = column.indexOf('.');
  if (dot < 0) return Object.hasOwn(row, column) ? row[column] : ABSENT;
  const parent = row[column.slice(0, dot)];
  const child = column.slice(dot + 1);
  return isPlainObject(parent) && Object.hasOwn(parent, child) ? parent[child] : ABSENT;
}

function addOnce(columns: string[], column: string): void {
  if (!columns.includes(column)) columns.push(column);
}

function isPlainObject(value: unknown): value is Row {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isPrimitive(value: unknown): boolean {
  return value === null || ['string', 'number', 'boolean'].includes(typeof value);
}
