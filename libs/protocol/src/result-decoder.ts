import { decodeToon } from './toon';
import { readCommonFields, unfoldCommonFields } from './common-fields';
import { indentUnit } from './data-block';
import { RESULT_TAGS } from './result-render';
import { ABSENT_MARKERS, expandRows } from './sparse-table';
import type { DecodedResult } from './types';
import { decodeEntities, unguardClosingTag } from './xml-text';

const OPENING = /^<result name="([^"]*)"(?: status="(success|error)")?>\n/;

/**
 * Reads back a `<result>` element written by `encodeResult`/`encodeError` (strict: exactly that
 * layout, or the one they wrote before: `status="success"`, each element indented two spaces). It proves that what the model reads is well-formed and that every value is
 * recoverable: the TOON or JSON block decodes (strict TOON: row counts must match; one space a
 * level as encodeData writes it, or two as it wrote before), and fields
 * said once in `<every-row>` are put back into every row. Throws on anything else.
 */
export function decodeResult(text: string): DecodedResult {
  const opening = OPENING.exec(text);
  if (!opening) throw new Error('not a <result> element');
  const result: DecodedResult = {
    name: decodeEntities(opening[1]),
    status: (opening[2] ?? 'success') as DecodedResult['status'],
  };
  const reader = new ElementReader(text, opening[0].length);
  result.message = reader.inline('message');
  const common = reader.inline('every-row');
  const data = reader.block('data', /^ type="(toon|json)"(?: absent="([^"]*)")?/);
  if (data) result.data = decodeData(data.attribute, data.body, common, data.absent);
  else if (common !== undefined) throw new Error('<every-row> without a <data> block');
  result.markdown = reader.block('output', /^ type="markdown"/)?.body;
  result.error = reader.inline('error');
  result.note = reader.inline('note');
  if (text.slice(reader.position) !== '</result>') throw new Error(`unexpected text at ${reader.position}`);
  for (const key of Object.keys(result) as (keyof DecodedResult)[])
    if (result[key] === undefined) delete result[key];
  return result;
}

function decodeData(type: string, body: string, common: string | undefined, absent?: string): unknown {
  let value: unknown =
    type === 'json' ? JSON.parse(body) : decodeToon(body, { indentSize: indentUnit(body) });
  if (absent !== undefined) {
    if (!ABSENT_MARKERS.includes(absent) || !Array.isArray(value))
      throw new Error(`absent="${absent}" beside data that is not a table`);
    value = expandRows(value as Record<string, unknown>[], absent);
  }
  if (common === undefined) return value;
  if (!Array.isArray(value)) throw new Error('<every-row> beside data that is not a table');
  return unfoldCommonFields(value as Record<string, unknown>[], readCommonFields(common));
}

class ElementReader {
  private readonly text: string;
  position: number;

  constructor(text: string, position: number) {
    this.text = text;
    this.position = position;
  }

  /** `<tag>text</tag>\n`, or indented two spaces as written before. */
  inline(tag: string): string | undefined {
    const indent = this.indentBefore(`<${tag}>`);
    if (indent === undefined) return undefined;
    const open = `${indent}<${tag}>`;
    const end = this.text.indexOf(`</${tag}>\n`, this.position);
    if (end < 0) throw new Error(`<${tag}> is not closed`);
    const body = this.text.slice(this.position + open.length, end);
    this.position = end + tag.length + 4;
    return unguardClosingTag(body, RESULT_TAGS);
  }

  /** `<tag attrs>\nbody\n</tag>\n`, or with both tags indented two spaces as written before. */
  block(tag: string, attributes: RegExp): { attribute: string; absent?: string; body: string } | undefined {
    const indent = this.indentBefore(`<${tag}`);
    if (indent === undefined) return undefined;
    const open = `${indent}<${tag}`;
    const rest = this.text.slice(this.position + open.length);
    const attribute = attributes.exec(rest);
    if (!attribute || !rest.startsWith('>\n', attribute[0].length)) throw new Error(`<${tag}> is malformed`);
    const bodyStart = this.position + open.length + attribute[0].length + 2;
    const closing = `\n${indent}</${tag}>\n`;
    const end = this.text.indexOf(closing, bodyStart - 1);
    if (end < 0) throw new Error(`<${tag}> is not closed`);
    this.position = end + closing.length;
    return {
      attribute: attribute[1] ?? '',
      ...(attribute[2] === undefined ? {} : { absent: attribute[2] }),
      body: unguardClosingTag(this.text.slice(bodyStart, end), RESULT_TAGS),
    };
  }

  /** `''` when `opening` starts here, `'  '` when it does after two spaces, else undefined. */
  private indentBefore(opening: string): string | undefined {
    if (this.text.startsWith(opening, this.position)) return '';
    return this.text.startsWith(`  ${opening}`, this.position) ? '  ' : undefined;
  }
}
