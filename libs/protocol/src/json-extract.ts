export interface JsonObjectMatch {
  value: Record<string, unknown>;
  start: number;
  end: number;
}

interface Span {
  start: number;
  end: number;
}

/**
 * Finds the outermost JSON objects embedded in text, skipping prose, code fences and
 * brace-delimited text that is not JSON (`{placeholder}`). One pass pairs the braces, so a
 * reply full of unmatched `{` costs linear time.
 */
export function findJsonObjects(text: string): JsonObjectMatch[] {
  const found: JsonObjectMatch[] = [];
  let coveredUntil = 0;
  for (const { start, end } of braceSpans(text)) {
    if (start < coveredUntil) continue;
    const value = parseObject(text.slice(start, end));
    if (!value) continue;
    found.push({ value, start, end });
    coveredUntil = end;
  }
  return found;
}

/**
 * Every balanced `{…}`, outermost first. Quotes count only inside braces (prose may hold a lone
 * `"`), and a string ends at a line break, which JSON strings never contain.
 */
function braceSpans(text: string): Span[] {
  const spans: Span[] = [];
  const open: number[] = [];
  let inString = false;
  for (let at = 0; at < text.length; at++) {
    const char = text[at];
    if (inString) {
      if (char === '\\') at++;
      else if (char === '"' || char === '\n') inString = false;
    } else if (char === '"') inString = open.length > 0;
    else if (char === '{') open.push(at);
    else if (char === '}') closeSpan(spans, open.pop(), at + 1);
  }
  return spans.sort((a, b) => a.start - b.start);
}

function closeSpan(spans: Span[], start: number | undefined, end: number): void {
  if (start !== undefined) spans.push({ start, end });
}

function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}
