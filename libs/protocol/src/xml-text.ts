const NAMED_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const ENTITY = /&(amp|lt|gt|quot|apos|#\d{1,7}|#x[0-9a-fA-F]{1,6});/g;
const MAX_CODE_POINT = 0x10ffff;

/**
 * Decodes the five XML entities and numeric character references. Anything else that
 * starts with `&` (a raw `AT&T`, `&nbsp;`) is kept as written: models rarely escape.
 */
export function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(ENTITY, (entity, body: string) => {
    if (!body.startsWith('#')) return NAMED_ENTITIES[body] ?? entity;
    const codePoint = body.startsWith('#x') ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
    return codePoint <= MAX_CODE_POINT ? String.fromCodePoint(codePoint) : entity;
  });
}

/** Escapes a value for a double-quoted attribute. */
export function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

/** Wraps text in CDATA, splitting any `]]>` it contains across two sections. */
export function toCdata(text: string): string {
  return `<![CDATA[${text.replace(/]]>/g, ']]]]><![CDATA[>')}]]>`;
}

/**
 * Keeps element text from closing its element early: only `</tag` is rewritten, so Markdown,
 * TOON and JSON stay readable (and cheap) for the model.
 */
export function guardClosingTag(text: string, tag: string): string {
  return text.replace(new RegExp(`</(${tag})`, 'gi'), '&lt;/$1');
}
