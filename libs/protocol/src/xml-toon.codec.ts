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

/** What an unreadable xml-toon reply is answered with; `{error}` is what could not be read. */
export const XML_TOON_REPAIR =
  'Your reply could not be read: {error}. Write each call as <call name="function_name"><p>param: value</p></call>; to answer the user, reply without <call>.';
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
  const problem = addParams(call, raw) ?? addData(call, raw) ?? addJsonBody(call, raw);
  return problem ? { ok: false, problem: `call ${ordinal} (${name}): ${problem}` } : { ok: true, call };
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
 * Renders calls the way a model should write them: scalars as `<p>name: value</p>` (in CDATA
 * when plain text would read back differently, e.g. "007" or " padded"), arrays and objects
 * in one `<data>` block. `parseXmlToonReply(encodeCalls(calls))` gives the calls back.
 */
export function encodeCalls(calls: ParsedCall[]): string {
  return calls.map(encodeCall).join('\n');
}

function encodeCall(call: ParsedCall): string {
  const lines: string[] = [];
  const structured: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(call.params)) {
    if (SIMPLE_KEY.test(key) && isScalar(value)) lines.push(`  ${encodeParam(key, value)}`);
    else setOwn(structured, key, value);
  }
  if (Object.keys(structured).length > 0) lines.push(...encodeDataLines(structured));
  const open = `<call name="${escapeAttribute(call.name)}">`;
  return lines.length ? [open, ...lines, '</call>'].join('\n') : `${open}</call>`;
}

function encodeParam(key: string, value: string | number | boolean | null): string {
  if (typeof value !== 'string') return `<p>${key}: ${String(value)}</p>`;
  const plain = `<p>${key}: ${value}</p>`;
  return readsBackAs(plain, key, value) ? plain : `<p>${key}: ${toCdata(value)}</p>`;
}

function readsBackAs(element: string, key: string, value: string): boolean {
  const [raw] = readReplyStructure(tokenize(`<call name="x">${element}</call>`)).calls;
  const reading = raw?.params.length === 1 && raw.data.length === 0 ? readParam(raw.params[0]) : undefined;
  return reading?.ok === true && reading.key === key && reading.value === value;
}

/** TOON, as the prompt teaches, when it reads back exactly and holds no `<`; else JSON with `<` escaped. */
function encodeDataLines(structured: Record<string, unknown>): string[] {
  const toon = encodeData(structured, { format: 'toon' }).text;
  const toonIsExact = !toon.includes('<') && dataReadsBack(toon, structured);
  if (toonIsExact) return ['  <data type="toon">', toon, '  </data>'];
  const json = JSON.stringify(toJsonValue(structured)).replace(/</g, '\\u003c');
  return ['  <data type="json">', json, '  </data>'];
}

function dataReadsBack(text: string, value: Record<string, unknown>): boolean {
  const reading = readDataBlock({ attrs: {}, text });
  return reading.ok && JSON.stringify(reading.entries) === JSON.stringify(toJsonValue(value));
}

function isScalar(value: unknown): value is string | number | boolean | null {
  return value === null || ['string', 'number', 'boolean'].includes(typeof value);
}
