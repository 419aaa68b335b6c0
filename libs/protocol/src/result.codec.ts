import { encodeData } from './toon-data';
import type { DataEncodingOptions, ResultContent } from './types';
import { escapeAttribute, guardClosingTag } from './xml-text';

/**
 * A successful result in the seed's shape (§2.3.3): `<message>`, then `<data type="toon|json">`,
 * then `<output type="markdown">`, each only when present. Text is not XML-escaped (that would
 * cost tokens and readability); only a closing tag that would end the element early is guarded.
 */
export function encodeResult(
  name: string,
  content: ResultContent,
  options: DataEncodingOptions = {},
): string {
  const lines = [`<result name="${escapeAttribute(name)}" status="success">`];
  if (content.message) lines.push(`  <message>${guard(content.message, 'message')}</message>`);
  if (content.data !== undefined) {
    const data = encodeData(content.data, options);
    lines.push(`  <data type="${data.type}">`, guard(data.text, 'data'), '  </data>');
  }
  if (content.markdown)
    lines.push('  <output type="markdown">', guard(content.markdown, 'output'), '  </output>');
  lines.push('</result>');
  return lines.join('\n');
}

/** A failed call in the seed's shape (§2.3.4). */
export function encodeError(name: string, message: string): string {
  return [
    `<result name="${escapeAttribute(name)}" status="error">`,
    `  <error>${guard(message, 'error')}</error>`,
    '</result>',
  ].join('\n');
}

function guard(text: string, tag: string): string {
  return guardClosingTag(text, `${tag}|result`);
}
