import { XMLParser } from 'fast-xml-parser';
import { readDataBlock } from '../../libs/protocol/src/data-block';
import { parseAssistantReply, type ParsedCall } from '../../libs/protocol/src/index';
import { readParam } from '../../libs/protocol/src/param-value';
import { REPLY_CORPUS, type ReplyCase } from '../../libs/protocol/src/reply-corpus.fixture';

/**
 * Measures candidate XML parsers against the reply corpus the codec is tested with: how many
 * replies yield exactly the expected calls. fast-xml-parser gets the same value typing and
 * data decoding as our scanner, so only the XML reading differs. (xml2js is not installed.)
 */
export interface ParserScore {
  parser: string;
  correct: number;
  failures: string[];
}

type CallReader = (reply: string) => Pick<ParsedCall, 'name' | 'params'>[] | undefined;

const ELEMENT_LISTS = new Set(['call', 'p', 'data']);

function fastXmlParserReader(options: { rawValues: boolean }): CallReader {
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '',
    parseTagValue: false,
    trimValues: false,
    isArray: (name) => ELEMENT_LISTS.has(name),
    stopNodes: options.rawValues ? ['*.p', '*.data'] : [],
  });
  return (reply) => {
    const root = parser.parse(`<root>${reply}</root>`) as { root?: { call?: Record<string, unknown>[] } };
    return (root.root?.call ?? []).map(callFromElement);
  };
}

/** Gives fast-xml-parser's tree the same extras as the scanner: named <p>/<data>, a JSON body. */
function callFromElement(element: Record<string, unknown>): Pick<ParsedCall, 'name' | 'params'> {
  const params: Record<string, unknown> = {};
  for (const p of asList(element.p)) {
    const reading = readParam({ attrs: attrsOf(p), pieces: [{ kind: 'text', text: textOf(p) }] });
    if (reading.ok) params[reading.key] = reading.value;
  }
  for (const data of asList(element.data)) {
    const reading = readDataBlock({ attrs: attrsOf(data), text: textOf(data) });
    if (reading.ok) Object.assign(params, reading.entries);
  }
  const body = textOf(element).trim();
  if (Object.keys(params).length === 0 && body.startsWith('{')) Object.assign(params, JSON.parse(body));
  return { name: String(element.name ?? ''), params };
}

function attrsOf(node: unknown): Record<string, string> {
  const name = typeof node === 'object' && node !== null ? (node as Record<string, unknown>).name : undefined;
  return typeof name === 'string' ? { name } : {};
}

function asList(value: unknown): unknown[] {
  return Array.isArray(value) ? value : value === undefined ? [] : [value];
}

function textOf(node: unknown): string {
  if (typeof node === 'string') return node;
  return typeof node === 'object' && node !== null
    ? String((node as Record<string, unknown>)['#text'] ?? '')
    : '';
}

const scannerReader: CallReader = (reply) => {
  const parsed = parseAssistantReply(reply);
  return parsed.kind === 'calls' ? parsed.calls.map(({ name, params }) => ({ name, params })) : undefined;
};

function score(parser: string, read: CallReader, corpus: ReplyCase[]): ParserScore {
  const failures: string[] = [];
  for (const { behaviour, reply, calls } of corpus) {
    let got: unknown;
    try {
      got = read(reply);
    } catch {
      got = 'threw';
    }
    if (canonical(got) !== canonical(calls)) failures.push(behaviour);
  }
  return { parser, correct: corpus.length - failures.length, failures };
}

/** JSON with sorted keys, so key order does not count as a difference. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) =>
    item && typeof item === 'object' && !Array.isArray(item)
      ? Object.fromEntries(Object.entries(item).sort(([a], [b]) => a.localeCompare(b)))
      : item,
  );
}

export function scoreParsers(corpus: ReplyCase[] = REPLY_CORPUS): ParserScore[] {
  return [
    score('fast-xml-parser 5 (defaults)', fastXmlParserReader({ rawValues: false }), corpus),
    score('fast-xml-parser 5 (stopNodes on p, data)', fastXmlParserReader({ rawValues: true }), corpus),
    score('tolerant scanner (libs/protocol)', scannerReader, corpus),
  ];
}
