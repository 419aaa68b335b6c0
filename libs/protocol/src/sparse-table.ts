import { setOwn } from './records';

type Row = Record<string, unknown>;

/**
 * What a table cell holds where its row has no such field, said in `<data absent="…">`: an empty
 * cell (`,,` or two tabs, which o200k_base reads as one token where `,~` costs two), or `~` where
 * an empty cell could be misread (`absentMarkerFor`). Results written with `~` before read as ever.
 */
export const ABSENT = '~';
export const EMPTY_CELL = '';
export const ABSENT_MARKERS: readonly string[] = [EMPTY_CELL, ABSENT];

export interface SparseTable {
  rows: Row[];
  /** The cell text that stands for a field the row lacks: `EMPTY_CELL` or `ABSENT`. */
  absent: string;
}

/**
 * Rows of one kind whose fields vary (log entries, events: a field present in some rows only,
 * an object such as `error: {code, retry}` in a few) as one table: the union of the fields as
 * columns, an object's fields as `parent.child` columns, and the `absent` marker in a cell whose
 * row lacks the field. JSON says every key in every row; TOON has no table for such rows. Only
 * offered when `expandRows` gives the rows back exactly (no key with a dot, no marker among the
 * values, no empty object, the rows' keys in one order), so the table is lossless by construction.
 */
export function flattenRows(value: unknown): SparseTable | undefined {
  if (!Array.isArray(value) || value.length < 2 || !value.every(isPlainObject)) return undefined;
  const rows = value as Row[];
  const columns = columnsOf(rows);
  if (!columns || columns.length * rows.length > MAX_CELLS_PER_FIELD * fieldCount(rows)) return undefined;
  const absent = absentMarkerFor(rows, columns[0]);
  const flat = rows.map((row) => {
    const out: Row = {};
    for (const column of columns) setOwn(out, column, cellOf(row, column, absent));
    return out;
  });
  const holdsAbsent = flat.some((row) => Object.values(row).includes(absent));
  if (!holdsAbsent && !columns.some((column) => column.includes('.'))) return undefined;
  return JSON.stringify(expandRows(flat, absent)) === JSON.stringify(rows)
    ? { rows: flat, absent }
    : undefined;
}

function holdsEmptyText(row: Row): boolean {
  const values = Object.values(row);
  return (
    values.length === 0 ||
    values.some(
      (value) => value === EMPTY_CELL || (isPlainObject(value) && Object.values(value).includes(EMPTY_CELL)),
    )
  );
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

/** The inverse of `flattenRows`: `absent` cells dropped, `parent.child` columns put back in `parent`. */
export function expandRows(rows: Row[], absent: string): Row[] {
  return rows.map((row) => {
    const out: Row = {};
    for (const [column, cell] of Object.entries(row)) {
      if (cell === absent) continue;
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

function cellOf(row: Row, column: string, absent: unknown): unknown {
  const dot = column.indexOf('.');
  if (dot < 0) return Object.hasOwn(row, column) ? row[column] : absent;
  const parent = row[column.slice(0, dot)];
  const child = column.slice(dot + 1);
  return isPlainObject(parent) && Object.hasOwn(parent, child) ? parent[child] : absent;
}

/**
 * An empty cell marks absence unless a row holds an empty string (an object's included), has no
 * field at all (its line would be empty), or lacks the first column (tab-delimited, its line
 * would open with a tab, which TOON reads as indentation).
 */
function absentMarkerFor(rows: Row[], firstColumn: string): string {
  const lacksFirst = (row: Row) => cellOf(row, firstColumn, NOT_THERE) === NOT_THERE;
  return rows.some((row) => holdsEmptyText(row) || lacksFirst(row)) ? ABSENT : EMPTY_CELL;
}

const NOT_THERE = Symbol('not there');

function addOnce(columns: string[], column: string): void {
  if (!columns.includes(column)) columns.push(column);
}

function isPlainObject(value: unknown): value is Row {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isPrimitive(value: unknown): boolean {
  return value === null || ['string', 'number', 'boolean'].includes(typeof value);
}
