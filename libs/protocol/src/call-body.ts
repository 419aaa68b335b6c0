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
 * lines under it. A one-line `name: value` is read exactly as `<p>name: value</p>` (same typing,
 * raw text kept); any other chunk (`key[count]{fields}:` with its rows, `key[count]: a,b`, a
 * nested object) is TOON, as in a `<data>` block. A chunk that is neither is left out, as body
 * text always was (a model's aside inside a call), unless it opens like a TOON list, which is
 * then reported.
 */
export type BodyReading =
  { ok: true; params: Record<string, unknown>; raw: Record<string, string> } | { ok: false; problem: string };

const SCALAR_LINE = /^[A-Za-z_][\w.-]*[ \t]*:/;
const LIST_HEADER = /^[A-Za-z_][\w.-]*\[\d*/;

export function readCallBody(bodyText: string): BodyReading {
  const params: Record<string, unknown> = {};
  const raw: Record<string, string> = {};
  for (const chunk of chunksOf(bodyText)) {
    if (chunk.length === 1 && SCALAR_LINE.test(chunk[0])) {
      const reading = readParam({ attrs: {}, pieces: [{ kind: 'text', text: chunk[0] }] });
      if (!reading.ok) continue;
      setOwn(params, reading.key, reading.value);
      setOwn(raw, reading.key, reading.rawText);
      continue;
    }
    const data = readDataBlock({ attrs: {}, text: chunk.join('\n') });
    if (data.ok) addEntries(params, raw, data.entries);
    else if (LIST_HEADER.test(chunk[0]))
      return { ok: false, problem: data.problem.replace('<data> block', 'list') };
  }
  return { ok: true, params, raw };
}

function chunksOf(bodyText: string): string[][] {
  const chunks: string[][] = [];
  for (const line of normaliseBlock(bodyText).split('\n')) {
    if (!line) continue;
    if (/^\s/.test(line) && chunks.length > 0) chunks[chunks.length - 1].push(line);
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
