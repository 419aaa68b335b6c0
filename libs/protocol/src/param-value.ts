import type { ContentPiece, RawParam } from './xml-structure';
import { decodeEntities } from './xml-text';

export type ParamReading =
  { ok: true; key: string; value: unknown; rawText: string } | { ok: false; problem: string };

const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/**
 * Reads `<p>key: value</p>` (or `<p name="key">value</p>`). The value is typed only where that
 * is lossless; text written inside CDATA is always a string.
 */
export function readParam(param: RawParam): ParamReading {
  const written = `<p>${preview(param.pieces)}</p>`;
  const named = param.attrs.name ?? param.attrs.key;
  if (named !== undefined) return finishParam(decodeEntities(named).trim(), param.pieces, written);
  const [first, ...others] = param.pieces;
  const colon = first?.kind === 'text' ? first.text.indexOf(':') : -1;
  if (colon < 0) return { ok: false, problem: `${written} is not written as "name: value"` };
  const key = decodeEntities(first.text.slice(0, colon)).trim();
  return finishParam(key, [{ kind: 'text', text: first.text.slice(colon + 1) }, ...others], written);
}

function finishParam(key: string, pieces: ContentPiece[], written: string): ParamReading {
  if (!key) return { ok: false, problem: `${written} has an empty parameter name` };
  const rawText = joinPieces(pieces);
  const literal = pieces.some((piece) => piece.kind === 'cdata');
  return { ok: true, key, value: literal ? rawText : typeParamValue(rawText), rawText };
}

/** Text pieces are entity-decoded and trimmed at the outer edges; CDATA is kept verbatim. */
function joinPieces(pieces: ContentPiece[]): string {
  const texts = pieces.map((piece) => (piece.kind === 'text' ? decodeEntities(piece.text) : piece.text));
  const last = pieces.length - 1;
  if (pieces[0]?.kind === 'text') texts[0] = texts[0].trimStart();
  if (pieces[last]?.kind === 'text') texts[last] = texts[last].trimEnd();
  return texts.join('');
}

/**
 * `true`, `false`, `null`, numbers whose text is their canonical form ("42", "-1.5", not "007"
 * or "1.50"), and JSON arrays/objects become typed values; everything else stays text.
 */
export function typeParamValue(text: string): unknown {
  if (text === 'true') return true;
  if (text === 'false') return false;
  if (text === 'null') return null;
  if (JSON_NUMBER.test(text) && String(Number(text)) === text) return Number(text);
  if (/^[[{]/.test(text)) return parseJsonContainer(text) ?? text;
  return text;
}

function parseJsonContainer(text: string): unknown {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null ? value : undefined;
  } catch {
    return undefined;
  }
}

function preview(pieces: ContentPiece[]): string {
  const text = pieces
    .map((piece) => piece.text)
    .join('')
    .trim();
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}
