import type { KeySpec } from './config-keys';

const DURATION = /^(\d+(?:\.\d+)?)\s*(ms|s|m|h)?$/;
const UNIT_MS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 };

/** Parses one raw value by its key's type; returns an error text instead of throwing. */
export function parseValue(spec: KeySpec, raw: unknown): { value?: unknown; error?: string } {
  switch (spec.type) {
    case 'string':
      return checkOneOf(spec, String(raw));
    case 'int':
      return parseInteger(spec, raw);
    case 'number':
      return parseNumber(spec, raw);
    case 'bool':
      return parseBool(raw);
    case 'duration':
      return parseDuration(spec, raw);
    case 'url':
      return parseUrl(spec, String(raw));
    case 'list':
      return { value: Array.isArray(raw) ? raw.map(String) : splitList(String(raw)) };
  }
}

function checkOneOf(spec: KeySpec, value: string) {
  if (spec.oneOf && !spec.oneOf.includes(value)) {
    return { error: `must be one of ${spec.oneOf.join(', ')}, got '${value}'` };
  }
  return { value };
}

/** `what` names the kind of value with its unit; `show` writes a bound in that unit. */
function inRange(spec: KeySpec, n: number, shown: string, what: string, show: (n: number) => string) {
  if (spec.min !== undefined && n < spec.min)
    return { error: `must be ${what} of at least ${show(spec.min)}, got ${shown}` };
  if (spec.max !== undefined && n > spec.max)
    return { error: `must be ${what} of at most ${show(spec.max)}, got ${shown}` };
  return { value: n };
}

function parseInteger(spec: KeySpec, raw: unknown) {
  const text = String(raw).trim();
  const what = spec.unit ? `a whole number of ${spec.unit}` : 'an integer';
  if (!/^-?\d+$/.test(text)) return { error: `must be ${what}, got '${text}'` };
  return inRange(spec, Number(text), text, what, String);
}

function parseNumber(spec: KeySpec, raw: unknown) {
  const text = String(raw).trim();
  const what = spec.unit ? `a number of ${spec.unit}` : 'a number';
  if (!/^-?\d+(\.\d+)?$/.test(text)) return { error: `must be ${what}, got '${text}'` };
  return inRange(spec, Number(text), text, what, String);
}

function parseBool(raw: unknown) {
  const text = String(raw).trim().toLowerCase();
  if (['true', '1', 'yes', 'on'].includes(text)) return { value: true };
  if (['false', '0', 'no', 'off'].includes(text)) return { value: false };
  return { error: `must be true or false, got '${text}'` };
}

function parseDuration(spec: KeySpec, raw: unknown) {
  const text = String(raw).trim();
  const match = DURATION.exec(text);
  if (!match)
    return { error: `must be a duration (500ms, 30s, 5m, 1h; a bare number is milliseconds), got '${text}'` };
  const ms = Math.round(Number(match[1]) * UNIT_MS[match[2] ?? 'ms']);
  const shown = match[2] ? text : `${text} (a bare number is milliseconds)`;
  return inRange(spec, ms, shown, 'a duration', formatDuration);
}

/** 300000 → `5m`, 1500 → `1500ms`: the largest unit that writes the value as a whole number. */
export function formatDuration(ms: number): string {
  for (const unit of ['h', 'm', 's'] as const) {
    if (ms >= UNIT_MS[unit] && ms % UNIT_MS[unit] === 0) return `${ms / UNIT_MS[unit]}${unit}`;
  }
  return `${ms}ms`;
}

/** A valid value to show next to an error: the key's own example, else its default. */
export function exampleFor(spec: KeySpec): string | undefined {
  if (spec.example) return spec.example;
  switch (spec.type) {
    case 'duration':
      return [
        ...new Set([
          ...(typeof spec.default === 'number' && spec.default > 0 ? [formatDuration(spec.default)] : []),
          '5m',
          '30s',
        ]),
      ]
        .slice(0, 2)
        .join(', ');
    case 'int':
    case 'number':
      return spec.default !== undefined ? String(spec.default) : undefined;
    case 'bool':
      return 'true, false';
    case 'url':
      return typeof spec.default === 'string' ? spec.default : undefined;
    default:
      return undefined;
  }
}

function parseUrl(spec: KeySpec, text: string) {
  if (spec.several && text.includes(',')) {
    for (const one of splitList(text)) {
      const { error } = parseOneUrl(spec, one);
      if (error) return { error };
    }
    return { value: text };
  }
  return parseOneUrl(spec, text);
}

function parseOneUrl(spec: KeySpec, text: string) {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    const schemes = spec.oneOf ? ` (${spec.oneOf.map((s) => `${s}:`).join(', ')})` : '';
    const shown = spec.secret ? 'a value that is not a URL' : `'${maskUrl(text)}'`;
    return { error: `must be a URL${schemes}, got ${shown}` };
  }
  const scheme = url.protocol.slice(0, -1);
  if (spec.oneOf && !spec.oneOf.includes(scheme)) {
    return { error: `must use one of the schemes ${spec.oneOf.join(', ')}, got '${scheme}'` };
  }
  return { value: text };
}

function splitList(text: string): string[] {
  return text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/** Hides credentials in a URL-like text so it can be shown in an error message. */
export function maskUrl(text: string): string {
  return text.replace(/\/\/[^/@\s,]*@/g, '//***@').replace(/:[^:/@\s,]+@/g, ':***@');
}
