import { normaliseBlock, readDataBlock } from './data-block';
import { readParam } from './param-value';
import { setOwn } from './records';

/**
 * A call's parameters written as bare lines in its body, the form the prompt teaches:
 *
 *   <call name="add_items">
 *   list: groceries
 *   items[2]{name,qty}:
 *     Apple,3
 *     Banana,6
 *   </call>
 *
 * The body is cut into chunks, each a line at the block's own indentation with the indented
 * lines under it. A one-line `name: value` is read as `<p>name: value</p>` (same typing, raw
 * text kept), except that a value in double quotes is the string inside them, as in YAML and
 * TOON; any other chunk (`key[count]{fields}:` with its rows, `key[count]: a,b`, a
 * nested object) is TOON, as in a `<data>` block. A chunk that is neither is left out, as body
 * text always was (a model's aside inside a call), unless it opens like a TOON list, which is
 * then reported.
 */
export type BodyReading =
  { ok: true; params: Record<string, unknown>; raw: Record<string, string> } | { ok: false; problem: string };

const SCALAR_LINE = /^[A-Za-z_][\w.-]*[ \t]*:/;
const LIST_HEADER = /^[A-Za-z_][\w.-]*\[\d*/;
/** A line that opens a parameter: `key:`, `key[2]:`, `key[2]{a,b}:`, `"quoted key":`. */
const KEY_LINE = /^(?:[A-Za-z_][\w.-]*|"(?:[^"\\]|\\.)*")[ \t]*(?:\[[^\]\n]*\])?(?:\{[^}\n]*\})?[ \t]*:/;

export function readCallBody(bodyText: string): BodyReading {
  const params: Record<string, unknown> = {};
  const raw: Record<string, string> = {};
  for (const chunk of chunksOf(bodyText)) {
    if (chunk.length === 1 && SCALAR_LINE.test(chunk[0])) {
      const reading = readParam({ attrs: {}, pieces: [{ kind: 'text', text: chunk[0] }] });
      if (!reading.ok) continue;
      const quoted = quotedString(reading.rawText);
      setOwn(params, reading.key, quoted ?? reading.value);
      setOwn(raw, reading.key, quoted ?? reading.rawText);
      continue;
    }
    const data = readDataBlock({ attrs: {}, text: chunk.join('\n') });
    if (data.ok) addEntries(params, raw, data.entries);
    else if (LIST_HEADER.test(chunk[0]))
      return { ok: false, problem: data.problem.replace('<data> block', 'list') };
  }
  return { ok: true, params, raw };
}

/** `"text"` as YAML and TOON read it: a value that is one JSON string is that string. */
function quotedString(text: string): string | undefined {
  if (!/^"(?:[^"\\]|\\.)*"$/.test(text)) return undefined;
  try {
    return JSON.parse(text) as string;
  } catch {
    return undefined;
  }
}

/**
 * A chunk is a line with the lines indented under it. A list's rows written flush with its header
 * (`items[2]{name,qty}:` then `Apple,3`), as models do, are taken as its rows until the next line
 * that opens a parameter.
 */
function chunksOf(bodyText: string): string[][] {
  const chunks: string[][] = [];
  for (const line of normaliseBlock(bodyText).split('\n')) {
    if (!line) continue;
    const current = chunks.at(-1);
    if (current && /^\s/.test(line)) current.push(line);
    else if (current && LIST_HEADER.test(current[0]) && !KEY_LINE.test(line)) current.push(`  ${line}`);
    else chunks.push([line]);
  }
  return chunks;
}

/** TOON values have no raw text: a key read before as a line loses its own. */
function addEntries(
  params: Record<string, unknown>,
  raw: Record<string, string>,
  entries: Record<string, unknown>,
): void {
  for (const [key, value] of Object.entries(entries)) {
    setOwn(params, key, value);
    delete raw[key];
  }
}
