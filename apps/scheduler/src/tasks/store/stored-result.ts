const MAX_STORED_CHARS = 64_000;

/** A result as stored in a text column: JSON, cut to a bounded size (a preview says so). */
export function storedResult(result: unknown): string | null {
  if (result === undefined) return null;
  const text = JSON.stringify(result) ?? null;
  if (text === null || text.length <= MAX_STORED_CHARS) return text;
  return JSON.stringify({ truncated: true, preview: text.slice(0, MAX_STORED_CHARS - 100) });
}

/** A stored result read back: its JSON value, or the text itself when it is not JSON. */
export function parseStored(text: string | null): unknown {
  if (text === null) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
