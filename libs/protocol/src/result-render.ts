import { commonFieldsText } from './common-fields';
import type { EncodedData } from './types';
import { escapeAttribute, guardClosingTag } from './xml-text';

/** Every element a `<result>` may hold; none of their closing tags may appear raw in content. */
export const RESULT_TAGS = 'result|message|every-row|data|output|note|error';

export interface SuccessParts {
  message?: string;
  data?: EncodedData;
  markdown?: string;
  /** What a cut left out, and how to get it. */
  note?: string;
}

/**
 * A successful result: `<message>`, then `<data type="toon|json">` (with `absent=""` when an empty
 * table cell means its row has no such field, `absent="~"` when `~` does)
 * (preceded by `<every-row>` when fields common to every row were taken out of the table), then
 * `<output type="markdown">`, then `<note>`, each only when present. Text is not XML-escaped
 * (that would cost tokens and readability); only a closing tag that would end an element early
 * is guarded. A result says `status="error"` when it failed and nothing when it did not, and its
 * elements stand flush: `status="success"` and two spaces before each element cost 5-7 tokens a
 * result, paid again by every later request (decodeResult still reads both).
 */
export function renderSuccess(name: string, parts: SuccessParts): string {
  const lines = [`<result name="${escapeAttribute(name)}">`];
  if (parts.message) lines.push(`<message>${guard(parts.message)}</message>`);
  if (parts.data?.common) lines.push(everyRowLine(parts.data.common));
  if (parts.data) lines.push(`<data ${dataAttributes(parts.data)}>`, guard(parts.data.text), '</data>');
  if (parts.markdown) lines.push('<output type="markdown">', guard(parts.markdown), '</output>');
  if (parts.note) lines.push(`<note>${guard(parts.note)}</note>`);
  lines.push('</result>');
  return lines.join('\n');
}

/** The `<every-row>` line: what folding a table's common fields adds to a result. */
export function everyRowLine(common: Record<string, unknown>): string {
  return `<every-row>${guard(commonFieldsText(common))}</every-row>`;
}

/** `type="toon|json"`, and `absent=""` for a table whose rows lack some fields (sparse-table.ts). */
function dataAttributes(data: EncodedData): string {
  return data.absent !== undefined
    ? `type="${data.type}" absent="${escapeAttribute(data.absent)}"`
    : `type="${data.type}"`;
}

/** A failed call: its message in `<error>`. */
export function renderError(name: string, message: string, note?: string): string {
  return [
    `<result name="${escapeAttribute(name)}" status="error">`,
    `<error>${guard(message)}</error>`,
    ...(note ? [`<note>${guard(note)}</note>`] : []),
    '</result>',
  ].join('\n');
}

function guard(text: string): string {
  return guardClosingTag(text, RESULT_TAGS);
}
