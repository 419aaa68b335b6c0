import type { XmlToken } from './xml-scanner';

/**
 * The grammar the reader accepts (case-insensitive tag names; see xml-scanner for tokens):
 *
 *   reply   := ( prose | call )*
 *   call    := '<call' attrs ( '/>' | '>' body ( '</call>' | before the next '<call' | end ) )
 *   body    := ( p | data | other )*          other tags and text are kept as body text
 *   p       := '<p' attrs '>' content ( '</p>' | before '<p' / '<data' / '<call' / '</call>' | end )
 *   data    := '<data' attrs '>' content ( '</data>' | before '<call' / '</call>' | end )
 *   content := ( text | tag-as-text | CDATA )*
 *
 * Everything except a structural tag is content, so `a < b`, `AT&T` or `<b>bold</b>` inside a
 * value reach the caller as written.
 */
export interface RawCall {
  attrs: Record<string, string>;
  params: RawParam[];
  data: RawData[];
  /** Body text outside `<p>`/`<data>`: `key: value` and TOON lines (call-body.ts), or a JSON object. */
  bodyText: string;
}

export type ContentPiece = { kind: 'text'; text: string } | { kind: 'cdata'; text: string };

export interface RawParam {
  attrs: Record<string, string>;
  pieces: ContentPiece[];
}

export interface RawData {
  attrs: Record<string, string>;
  text: string;
}

export interface ReplyStructure {
  calls: RawCall[];
  /** Source text outside every call. */
  prose: string;
}

type OpenTag = Extract<XmlToken, { kind: 'open' }>;

interface Cursor {
  tokens: XmlToken[];
  at: number;
}

export function readReplyStructure(tokens: XmlToken[]): ReplyStructure {
  const cursor: Cursor = { tokens, at: 0 };
  const calls: RawCall[] = [];
  let prose = '';
  while (cursor.at < tokens.length) {
    const token = tokens[cursor.at++];
    if (token.kind === 'open' && token.name === 'call') calls.push(readCall(cursor, token));
    else prose += token.source;
  }
  return { calls, prose };
}

function readCall(cursor: Cursor, open: OpenTag): RawCall {
  const call: RawCall = { attrs: open.attrs, params: [], data: [], bodyText: '' };
  if (open.selfClosing) return call;
  for (let token = peek(cursor); token; token = peek(cursor)) {
    if (isOpen(token, 'call')) break;
    cursor.at++;
    if (isClose(token, 'call')) break;
    if (token.kind === 'open' && token.name === 'p') call.params.push(readParamElement(cursor, token));
    else if (token.kind === 'open' && token.name === 'data') call.data.push(readDataElement(cursor, token));
    else call.bodyText += token.kind === 'cdata' ? token.text : token.source;
  }
  return call;
}

function readParamElement(cursor: Cursor, open: OpenTag): RawParam {
  return { attrs: open.attrs, pieces: open.selfClosing ? [] : readPieces(cursor) };
}

function readDataElement(cursor: Cursor, open: OpenTag): RawData {
  return { attrs: open.attrs, text: open.selfClosing ? '' : readDataText(cursor) };
}

function readPieces(cursor: Cursor): ContentPiece[] {
  const pieces: ContentPiece[] = [];
  for (let token = peek(cursor); token; token = peek(cursor)) {
    if (endsParamImplicitly(token)) break;
    cursor.at++;
    if (isClose(token, 'p')) break;
    pieces.push(
      token.kind === 'cdata' ? { kind: 'cdata', text: token.text } : { kind: 'text', text: token.source },
    );
  }
  return pieces;
}

function readDataText(cursor: Cursor): string {
  let text = '';
  for (let token = peek(cursor); token; token = peek(cursor)) {
    if (isOpen(token, 'call') || isClose(token, 'call')) break;
    cursor.at++;
    if (isClose(token, 'data')) break;
    text += token.kind === 'cdata' ? token.text : token.source;
  }
  return text;
}

/** A `<p>` missing its `</p>` ends where the next structural tag begins. */
function endsParamImplicitly(token: XmlToken): boolean {
  return isOpen(token, 'p') || isOpen(token, 'data') || isOpen(token, 'call') || isClose(token, 'call');
}

function peek(cursor: Cursor): XmlToken | undefined {
  return cursor.tokens[cursor.at];
}

function isOpen(token: XmlToken, name: string): boolean {
  return token.kind === 'open' && token.name === name;
}

function isClose(token: XmlToken, name: string): boolean {
  return token.kind === 'close' && token.name === name;
}
