/**
 * A tolerant XML-ish tokenizer for model replies. It never fails: anything that is not a
 * well-formed tag, closing tag or CDATA section is plain text, so a raw `<` or `&` in a value
 * survives as written. Every token keeps its `source` text, so callers can rebuild any span.
 */
export type XmlToken =
  | { kind: 'text'; source: string }
  | { kind: 'cdata'; source: string; text: string }
  | { kind: 'open'; source: string; name: string; attrs: Record<string, string>; selfClosing: boolean }
  | { kind: 'close'; source: string; name: string };

const CDATA_START = '<![CDATA[';
const CDATA_END = ']]>';
// `<name attrs>` or `<name attrs/>`; quoted attribute values may hold `>` but not `<` or a newline.
const OPEN_TAG = /<([A-Za-z_][\w.:-]*)(?=[\s/>])((?:"[^"<\n]*"|'[^'<\n]*'|[^<>"'])*?)(\/?)>/y;
const CLOSE_TAG = /<\/([A-Za-z_][\w.:-]*)\s*>/y;
const ATTRIBUTE = /([A-Za-z_][\w.:-]*)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;

export function tokenize(input: string): XmlToken[] {
  const tokens: XmlToken[] = [];
  let text = '';
  let at = 0;
  while (at < input.length) {
    const lt = input.indexOf('<', at);
    if (lt < 0) {
      text += input.slice(at);
      break;
    }
    text += input.slice(at, lt);
    const markup = readMarkup(input, lt);
    if (!markup) {
      text += '<';
      at = lt + 1;
      continue;
    }
    if (text) tokens.push({ kind: 'text', source: text });
    text = '';
    tokens.push(markup);
    at = lt + markup.source.length;
  }
  if (text) tokens.push({ kind: 'text', source: text });
  return tokens;
}

function readMarkup(input: string, at: number): XmlToken | undefined {
  if (input.startsWith(CDATA_START, at)) return readCdata(input, at);
  return readCloseTag(input, at) ?? readOpenTag(input, at);
}

/** An unterminated CDATA section runs to the end of the input. */
function readCdata(input: string, at: number): XmlToken {
  const end = input.indexOf(CDATA_END, at + CDATA_START.length);
  const stop = end < 0 ? input.length : end + CDATA_END.length;
  const text = input.slice(at + CDATA_START.length, end < 0 ? input.length : end);
  return { kind: 'cdata', source: input.slice(at, stop), text };
}

function readCloseTag(input: string, at: number): XmlToken | undefined {
  CLOSE_TAG.lastIndex = at;
  const match = CLOSE_TAG.exec(input);
  return match ? { kind: 'close', source: match[0], name: match[1].toLowerCase() } : undefined;
}

function readOpenTag(input: string, at: number): XmlToken | undefined {
  OPEN_TAG.lastIndex = at;
  const match = OPEN_TAG.exec(input);
  if (!match) return undefined;
  return {
    kind: 'open',
    source: match[0],
    name: match[1].toLowerCase(),
    attrs: parseAttributes(match[2]),
    selfClosing: match[3] === '/',
  };
}

/** Double quotes, single quotes, bare values and valueless attributes are all accepted. */
export function parseAttributes(text: string): Record<string, string> {
  const attrs: Record<string, string> = {};
  for (const match of text.matchAll(ATTRIBUTE)) {
    attrs[match[1].toLowerCase()] = match[2] ?? match[3] ?? match[4] ?? '';
  }
  return attrs;
}
