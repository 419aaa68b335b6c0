import { readCallBody } from './call-body';
import { readDataBlock } from './data-block';
import { readParam } from './param-value';
import { cleanProse } from './prose';
import { setOwn } from './records';
import { encodeData, toJsonValue } from './toon-data';
import { invalidReply } from './invalid-reply';
import type { ParsedCall, ParsedReply } from './types';
import { tokenize } from './xml-scanner';
import { readReplyStructure, type RawCall, type ReplyStructure } from './xml-structure';
import { decodeEntities, escapeAttribute, toCdata } from './xml-text';
import { XML_TOON_REPAIR } from './guides';

// What is left of `<call` or `</call>` in the prose is a tag the scanner could not read.
const UNREAD_CALL_OPENING = /<call\b/i;
const UNREAD_CALL_CLOSING = /<\/call\b/i;
const MALFORMED_CALL = 'a <call> tag is malformed; write <call name="function_name">';
const UNOPENED_CALL = 'there is a </call> without an opening <call name="...">';
const SIMPLE_KEY = /^[A-Za-z_][\w.-]*$/;

type CallReading = { ok: true; call: ParsedCall } | { ok: false; problem: string };

/** Parses an xml-toon reply (grammar in xml-structure.ts). Never throws. */
export function parseXmlToonReply(text: string): ParsedReply {
  const structure = readReplyStructure(tokenize(text));
  if (UNREAD_CALL_OPENING.test(structure.prose)) return invalid(MALFORMED_CALL);
  if (structure.calls.length === 0) return readFinalAnswer(text, structure);
  const calls: ParsedCall[] = [];
  for (const [index, raw] of structure.calls.entries()) {
    const reading = readCall(raw, index + 1);
    if (!reading.ok) return invalid(reading.problem);
    calls.push(reading.call);
  }
  const thought = cleanProse(structure.prose);
  return thought ? { kind: 'calls', calls, thought } : { kind: 'calls', calls };
}

function readFinalAnswer(text: string, structure: ReplyStructure): ParsedReply {
  if (!text.trim()) return invalid('the reply is empty');
  if (UNREAD_CALL_CLOSING.test(structure.prose)) return invalid(UNOPENED_CALL);
  return { kind: 'final', answer: text.trim() };
}

function readCall(raw: RawCall, ordinal: number): CallReading {
  const name = decodeEntities(raw.attrs.name ?? '').trim();
  if (raw.attrs.name === undefined) return { ok: false, problem: `call ${ordinal} has no name attribute` };
  if (!name) return { ok: false, problem: `call ${ordinal} has an empty function name` };
  const call: Required<ParsedCall> = { name, params: {}, raw: {} };
  const problem = addBody(call, raw) ?? addParams(call, raw) ?? addData(call, raw) ?? addJsonBody(call, raw);
  return problem ? { ok: false, problem: `call ${ordinal} (${name}): ${problem}` } : { ok: true, call };
}

/** Bare `name: value` lines and TOON in the body (call-body.ts); `<p>` and `<data>` read after them win. */
function addBody(call: Required<ParsedCall>, raw: RawCall): string | undefined {
  if (raw.bodyText.trim().startsWith('{')) return undefined;
  const reading = readCallBody(raw.bodyText);
  if (!reading.ok) return reading.problem;
  for (const [key, value] of Object.entries(reading.params)) setOwn(call.params, key, value);
  for (const [key, text] of Object.entries(reading.raw)) setOwn(call.raw, key, text);
  return undefined;
}

function addParams(call: Required<ParsedCall>, raw: RawCall): string | undefined {
  for (const param of raw.params) {
    const reading = readParam(param);
    if (!reading.ok) return reading.problem;
    setOwn(call.params, reading.key, reading.value);
    setOwn(call.raw, reading.key, reading.rawText);
  }
  return undefined;
}

/** Data keys are merged after the `<p>`s and win; they have no raw text. */
function addData(call: Required<ParsedCall>, raw: RawCall): string | undefined {
  for (const data of raw.data) {
    const reading = readDataBlock(data);
    if (!reading.ok) return reading.problem;
    for (const [key, value] of Object.entries(reading.entries)) {
      setOwn(call.params, key, value);
      delete call.raw[key];
    }
  }
  return undefined;
}

/** Tolerates `<call name="x">{"path": "/tmp"}</call>`: arguments as one JSON object. */
function addJsonBody(call: Required<ParsedCall>, raw: RawCall): string | undefined {
  const body = raw.bodyText.trim();
  if (raw.params.length > 0 || raw.data.length > 0 || !body.startsWith('{')) return undefined;
  try {
    const value: unknown = JSON.parse(body);
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
    for (const [key, item] of Object.entries(value)) setOwn(call.params, key, item);
    return undefined;
  } catch {
    return 'its arguments are neither <p>name: value</p> lines nor a valid JSON object';
  }
}

function invalid(problem: string): ParsedReply {
  return invalidReply(XML_TOON_REPAIR, problem);
}

/**
 * Renders calls the way a model should write them: one `name: value` line per scalar (as
 * `<p>name: value</p>` when a bare line would read back differently, in CDATA when plain text
 * would too, e.g. "007" or " padded"), arrays and objects as TOON lines in the body (a `<data>`
 * block when they would not read back there). `parseXmlToonReply(encodeCalls(calls))` gives the
 * calls back.
 */
export function encodeCalls(calls: ParsedCall[]): string {
  return calls.map(encodeCall).join('\n');
}

function encodeCall(call: ParsedCall): string {
  const lines: string[] = [];
  const structured: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(call.params)) {
    if (SIMPLE_KEY.test(key) && isScalar(value)) lines.push(encodeParam(key, value));
    else setOwn(structured, key, value);
  }
  if (Object.keys(structured).length > 0) lines.push(...encodeDataLines(structured));
  const open = `<call name="${escapeAttribute(call.name)}">`;
  return lines.length ? [open, ...lines, '</call>'].join('\n') : `${open}</call>`;
}

function encodeParam(key: string, value: string | number | boolean | null): string {
  const expected = { [key]: value };
  const line = `${key}: ${String(value)}`;
  if (readsBack(line, expected)) return line;
  const plain = `<p>${line}</p>`;
  return typeof value !== 'string' || readsBack(plain, expected) ? plain : `<p>${key}: ${toCdata(value)}</p>`;
}

/** TOON, as the prompt teaches, when it reads back exactly and holds no `<`; else JSON with `<` escaped. */
function encodeDataLines(structured: Record<string, unknown>): string[] {
  const toon = encodeData(structured, { format: 'toon' }).text;
  if (!toon.includes('<')) {
    if (readsBack(toon, structured)) return [toon];
    if (readsBack(`<data type="toon">\n${toon}\n</data>`, structured))
      return ['<data type="toon">', toon, '</data>'];
  }
  const json = JSON.stringify(toJsonValue(structured)).replace(/</g, '\\u003c');
  return ['<data type="json">', json, '</data>'];
}

/** Whether a call holding only `body` gives exactly `params` back. */
function readsBack(body: string, params: Record<string, unknown>): boolean {
  const reply = parseXmlToonReply(`<call name="x">\n${body}\n</call>`);
  return (
    reply.kind === 'calls' &&
    reply.calls.length === 1 &&
    JSON.stringify(reply.calls[0].params) === JSON.stringify(toJsonValue(params))
  );
}

function isScalar(value: unknown): value is string | number | boolean | null {
  return value === null || ['string', 'number', 'boolean'].includes(typeof value);
}
