// The text of a message's content, plain or in parts: apart from wire-common.ts so that the prompt's
// token count can use it without an import circle.
/** Reads a message's content as text: a plain string, or the text of its parts/blocks. */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map(partText).join('');
}

function partText(part: unknown): string {
  if (typeof part !== 'object' || part === null) return '';
  const record = part as Record<string, unknown>;
  if (typeof record['text'] === 'string') return record['text'];
  if ('content' in record) return contentText(record['content']);
  return '';
}
