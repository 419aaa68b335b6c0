import { decodeToon, encodeToon } from './toon';
import { setOwn } from './records';

type Row = Record<string, unknown>;

export interface FoldedTable {
  rows: Row[];
  /** The fields taken out of every row, with the one value they hold in all of them. */
  common: Row;
}

/**
 * Takes out of a table the fields whose value is the same in every row (a column of `null`s is
 * the usual case), so that value is said once instead of once per row. At least two rows are
 * needed to call a value common, and at least one field stays in the table.
 */
export function foldCommonFields(rows: Row[]): FoldedTable | undefined {
  if (rows.length < 2) return undefined;
  const keys = Object.keys(rows[0]);
  const commonKeys = keys.filter((key) => rows.every((row) => row[key] === rows[0][key]));
  if (commonKeys.length === 0 || commonKeys.length === keys.length) return undefined;
  const common: Row = {};
  for (const key of commonKeys) setOwn(common, key, rows[0][key]);
  const kept = keys.filter((key) => !commonKeys.includes(key));
  const folded = rows.map((row) => {
    const out: Row = {};
    for (const key of kept) setOwn(out, key, row[key]);
    return out;
  });
  return { rows: folded, common };
}

/**
 * The common fields on one line, `key: value, key: value`, keys and values written as TOON
 * writes an object's fields (a string with a comma, a colon or a quote is quoted), so the line
 * splits back unambiguously on the commas outside quotes.
 */
export function commonFieldsText(common: Row): string {
  return encodeToon(common).split('\n').join(', ');
}

/** The inverse of `commonFieldsText`. */
export function readCommonFields(text: string): Row {
  return decodeToon(splitOutsideQuotes(text).join('\n')) as Row;
}

/** Restores the common fields into every row. */
export function unfoldCommonFields(rows: Row[], common: Row): Row[] {
  return rows.map((row) => {
    const out: Row = { ...row };
    for (const [key, value] of Object.entries(common)) setOwn(out, key, value);
    return out;
  });
}

function splitOutsideQuotes(text: string): string[] {
  const parts: string[] = [];
  let quoted = false;
  let start = 0;
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i];
    if (quoted && char === '\\') i += 1;
    else if (char === '"') quoted = !quoted;
    else if (!quoted && char === ',' && text[i + 1] === ' ') {
      parts.push(text.slice(start, i));
      start = i + 2;
      i += 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}
