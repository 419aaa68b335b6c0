import { truncate } from '../host/call-outcome';

const SECRET_KEY = /pass|secret|token|key|auth|cookie|credential|signature|private/i;
const MAX_KEYS = 20;
const MAX_VALUE_CHARS = 64;

/**
 * A short, redacted picture of a call's parameters for its FunctionCall record: keys with
 * truncated scalar values, sizes of lists and objects, and `***` for anything secret-looking.
 */
export function summarizeParams(
  params: Record<string, unknown>,
  redact: (text: string) => string,
  maxChars = 512,
): string {
  const entries = Object.entries(params);
  const parts = entries
    .slice(0, MAX_KEYS)
    .map(([key, value]) => `${key}=${SECRET_KEY.test(key) ? '***' : summarizeValue(value)}`);
  if (entries.length > MAX_KEYS) parts.push(`…(+${entries.length - MAX_KEYS} more)`);
  return truncate(redact(parts.join(', ')), maxChars);
}

function summarizeValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(truncate(value, MAX_VALUE_CHARS));
  if (Array.isArray(value)) return `[${value.length} items]`;
  if (typeof value === 'object' && value !== null) return `{${Object.keys(value).length} keys}`;
  return String(value);
}
