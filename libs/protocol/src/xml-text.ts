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
 * Keeps element text from closing its element early: only `</tag` is rewritten (to `&lt;/tag`),
 * so Markdown, TOON and JSON stay readable (and cheap) for the model. Text that already holds
 * `&lt;/tag` gets one more `amp;` (`&amp;lt;/tag`), so `unguardClosingTag` restores it exactly.
 */
export function guardClosingTag(text: string, tags: string): string {
  return text.replace(
    new RegExp(`</(${tags})|&((?:amp;)*)lt;/(${tags})`, 'gi'),
    (_match, closed: string | undefined, amps: string, guarded: string) =>
      closed === undefined ? `&amp;${amps}lt;/${guarded}` : `&lt;/${closed}`,
  );
}

/** The inverse of `guardClosingTag` for the same tags. */
export function unguardClosingTag(text: string, tags: string): string {
  return text.replace(new RegExp(`&((?:amp;)*)lt;/(${tags})`, 'gi'), (_match, amps: string, tag: string) =>
    amps ? `&${amps.slice(4)}lt;/${tag}` : `</${tag}`,
  );
}
