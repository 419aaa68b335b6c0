import { decodeToon } from './toon';
import type { RawData } from './xml-structure';
import { decodeEntities } from './xml-text';

const TOON_ROOT_HEADER = /^\[\d+[^\]\n]*\][^\n]*:/;

export type DataReading = { ok: true; entries: Record<string, unknown> } | { ok: false; problem: string };

type Decoded = { ok: true; value: unknown } | { ok: false; problem: string };

/**
 * Decodes a `<data>` block into the parameters it carries. JSON is accepted whatever the
 * declared type (models often send JSON in a TOON block); TOON is decoded strictly first, then
 * leniently, so a declared row count that differs from the rows sent is recovered (the rows
 * present win) while a malformed row is reported with its line.
 */
export function readDataBlock(data: RawData): DataReading {
  const text = normaliseBlock(data.text);
  if (!text) return { ok: true, entries: {} };
  const decoded = decodeByContent(text);
  if (!decoded.ok) return decoded;
  return toEntries(decoded.value, data.attrs.name ? decodeEntities(data.attrs.name).trim() : undefined);
}

/**
 * The content decides, not the declared type: `{` opens JSON, as does a `[` that is not a TOON
 * root header such as `[2]{id,name}:`; anything else is TOON.
 */
function decodeByContent(text: string): Decoded {
  if (text.startsWith('{')) return decodeJson(text);
  if (text.startsWith('[') && !TOON_ROOT_HEADER.test(text)) return decodeJson(text);
  return decodeToonText(text);
}

function decodeJson(text: string): Decoded {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    return { ok: false, problem: `the <data> block is not valid JSON (${messageOf(error)})` };
  }
}

function decodeToonText(text: string): Decoded {
  const indentSize = indentUnit(text);
  try {
    return { ok: true, value: decodeToon(text, { indentSize }) };
  } catch {
    try {
      return { ok: true, value: decodeToon(text, { indentSize, strict: false }) };
    } catch (error) {
      return { ok: false, problem: `the <data> block is not valid TOON (${messageOf(error)})` };
    }
  }
}

function toEntries(value: unknown, name: string | undefined): DataReading {
  if (name) return { ok: true, entries: Object.fromEntries([[name, value]]) };
  if (isPlainObject(value)) return { ok: true, entries: value };
  const what = Array.isArray(value) ? 'a list with no name' : 'a bare value';
  return {
    ok: false,
    problem: `the <data> block holds ${what}; start it with a key, e.g. items[2]{id,name}: or {"items": [...]}`,
  };
}

/**
 * Models indent the block to match the surrounding XML, use tabs, leave blank lines or CRLF:
 * strip the common indentation, turn leading tabs into two spaces and drop blank lines (a TOON
 * value never spans lines, so no content is lost).
 */
export function normaliseBlock(text: string): string {
  const lines = text
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((line) => line.replace(/^[ \t]+/, (indent) => indent.replace(/\t/g, '  ')).replace(/ +$/, ''))
    .filter((line) => line.trim() !== '');
  const common = lines.reduce((least, line) => Math.min(least, indentOf(line)), Infinity);
  return lines.map((line) => line.slice(common)).join('\n');
}

/**
 * The smallest indentation step in a TOON text, so 1- and 4-space TOON decode as well as 2-space
 * (a TOON line's leading spaces are all indentation: no value spans lines).
 */
export function indentUnit(text: string): number {
  const smallest = text
    .split('\n')
    .map(indentOf)
    .reduce((least, indent) => (indent > 0 ? Math.min(least, indent) : least), Infinity);
  return Number.isFinite(smallest) ? smallest : 2;
}

function indentOf(line: string): number {
  return line.length - line.trimStart().length;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
