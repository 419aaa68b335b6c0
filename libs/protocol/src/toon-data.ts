import { foldCommonFields } from './common-fields';
import { everyRowLine } from './result-render';
import { EMPTY_CELL, flattenRows } from './sparse-table';
import { countTokens } from './tokens';
import { encodeToon, rawString, type ToonEncoding } from './toon';
import type { DataEncodingOptions, EncodedData } from './types';

/**
 * Encodes structured data for the model. A uniform table (an array of objects with the same
 * primitive fields) is always TOON; anything else is whichever of TOON and compact JSON costs
 * fewer tokens. TOON is written comma-delimited, or tab-delimited when that is cheaper (text
 * with commas needs quotes). In `auto`, a table's fields that hold one value in every row (often
 * `null`) may be taken out of the rows and returned as `common`, said once, when that is cheaper;
 * rows whose fields vary may be one table with an empty cell (or `~`) for a missing field (`absent`,
 * sparse-table.ts).
 * Ties go to the more familiar form: JSON over TOON, commas over tabs, no folding. The value is
 * first brought to the JSON data model (toJSON, dropped `undefined`, bigint as number or
 * string), so every candidate says the same thing.
 */
export function encodeData(value: unknown, options: DataEncodingOptions = {}): EncodedData {
  const plain = toJsonValue(value);
  const { model, onSaved } = options;
  const format = options.format ?? 'auto';
  const json: EncodedData = { type: 'json', text: JSON.stringify(plain) };
  if (format === 'json') return json;
  const toon = toonCandidates(plain);
  const choice =
    format === 'toon'
      ? cheapest(toon, model)
      : isUniformTable(plain)
        ? cheapest([...toon, ...foldedCandidates(plain)], model)
        : cheapest([json, ...toon, ...sparseCandidates(plain)], model);
  if (onSaved) {
    const { chosen, cost } = choice;
    // JSON among the candidates: its count is known; otherwise counted only when asked
    onSaved(() => (choice.json ?? tokensOf(json, model)) - cost);
    return chosen;
  }
  return choice.chosen;
}

/** Rows whose fields vary, as one table with an empty cell (or `~`) where a row lacks a field (sparse-table.ts). */
function sparseCandidates(plain: unknown): EncodedData[] {
  const table = flattenRows(plain);
  if (!table) return [];
  const { rows, absent } = table;
  const candidates = toonCandidates(rows, absent === EMPTY_CELL ? bareEmptyCells : undefined);
  return candidates.map((candidate) => ({ ...candidate, absent }));
}

/**
 * TOON quotes an empty string (`""`); an absent cell is written as nothing. Only for a sparse
 * table, whose only empty strings are its absent cells (flattenRows picks `~` otherwise).
 */
const bareEmptyCells: ToonEncoding['replacer'] = (_key, value) =>
  value === EMPTY_CELL ? rawString('') : value;

/**
 * One space a level (TOON's `indentSize: 1`): o200k_base reads a row's one space with its first
 * value (` Bolt`, ` /var`, ` "2026`), where two spaces cost a token of their own on every row
 * (before a digit two, with one space one). Nesting stays as unambiguous; decodeResult and the
 * call reader take the step from the text. 2,437 of the suite's 68,008 result tokens.
 */
const INDENT = { indentSize: 1 } as const;

function toonCandidates(plain: unknown, replacer?: ToonEncoding['replacer']): EncodedData[] {
  const options = replacer ? { ...INDENT, replacer } : INDENT;
  const comma = encodeToon(plain, options);
  const tab = encodeToon(plain, { ...options, delimiter: '\t' });
  return tab === comma
    ? [{ type: 'toon', text: comma }]
    : [
        { type: 'toon', text: comma },
        { type: 'toon', text: tab },
      ];
}

function foldedCandidates(table: unknown): EncodedData[] {
  const folded = foldCommonFields(table as Record<string, unknown>[]);
  if (!folded) return [];
  return toonCandidates(folded.rows).map((candidate) => ({ ...candidate, common: folded.common }));
}

/** The cheapest candidate, its cost in tokens, and compact JSON's when JSON was a candidate. */
function cheapest(
  candidates: EncodedData[],
  model: string | undefined,
): { chosen: EncodedData; cost: number; json?: number } {
  const costs = candidates.map((candidate) => tokensOf(candidate, model));
  const cost = Math.min(...costs);
  const json = candidates[0].type === 'json' ? costs[0] : undefined;
  return { chosen: candidates[costs.indexOf(cost)], cost, ...(json === undefined ? {} : { json }) };
}

function tokensOf(candidate: EncodedData, model: string | undefined): number {
  const common = candidate.common ? countTokens(`${everyRowLine(candidate.common)}\n`, model) : 0;
  const absent = candidate.absent === undefined ? 0 : countTokens(` absent="${candidate.absent}"`, model);
  return countTokens(candidate.text, model) + common + absent;
}

export function toJsonValue(value: unknown): unknown {
  const text = JSON.stringify(value, (_key, item: unknown) =>
    typeof item === 'bigint' ? bigintToJson(item) : item,
  );
  return text === undefined ? null : JSON.parse(text);
}

function bigintToJson(value: bigint): number | string {
  return Number.isSafeInteger(Number(value)) ? Number(value) : value.toString();
}

/** TOON's tabular form: every element an object with the same keys and only primitive values. */
export function isUniformTable(value: unknown): boolean {
  if (!Array.isArray(value) || value.length === 0) return false;
  const keys = Object.keys(value[0] ?? {});
  return keys.length > 0 && value.every((row: unknown) => isFlatRowWithKeys(row, keys));
}

function isFlatRowWithKeys(row: unknown, keys: string[]): boolean {
  if (typeof row !== 'object' || row === null || Array.isArray(row)) return false;
  const record = row as Record<string, unknown>;
  const rowKeys = Object.keys(record);
  return (
    rowKeys.length === keys.length &&
    keys.every((key) => Object.hasOwn(record, key) && isPrimitive(record[key]))
  );
}

function isPrimitive(value: unknown): boolean {
  return value === null || ['string', 'number', 'boolean'].includes(typeof value);
}
