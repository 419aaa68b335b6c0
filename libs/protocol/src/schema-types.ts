import { ownValue, setOwn } from './records';
import type { FunctionParameters, ParameterSchema, ParsedCall } from './types';

const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/**
 * Gives the function's schema the last word on parameter types. The parser types
 * a `<p>` value only where that is lossless, but only the schema knows what was meant:
 * - `string`: the text the model wrote (`raw`), so "007", `{"a":1}` or `true` stay as written;
 *   a number or boolean without raw text (json-action) becomes its canonical text;
 * - `number`/`integer`: decimal text such as "007" or "2.50" becomes a number;
 * - `boolean`: "true"/"false" in any case becomes a boolean;
 * - `array`/`object`: JSON text of that shape is parsed.
 * Anything else is returned untouched for validation to judge. Unknown parameters are kept.
 */
export function applySchemaTypes(call: ParsedCall, parameters: FunctionParameters): Record<string, unknown> {
  const params: Record<string, unknown> = { ...call.params };
  for (const [key, value] of Object.entries(call.params)) {
    const schema = ownValue(parameters.properties, key);
    if (schema) setOwn(params, key, conform(value, ownValue(call.raw, key), schema));
  }
  return params;
}

function conform(value: unknown, raw: string | undefined, schema: ParameterSchema): unknown {
  switch (schema.type) {
    case 'string':
      return raw ?? (typeof value === 'number' || typeof value === 'boolean' ? String(value) : value);
    case 'number':
    case 'integer':
      return typeof value === 'string' && DECIMAL.test(value.trim()) ? Number(value.trim()) : value;
    case 'boolean':
      return typeof value === 'string' ? (booleanOf(value) ?? value) : value;
    case 'array':
    case 'object':
      return typeof value === 'string' ? (jsonOfType(value, schema.type) ?? value) : value;
    default:
      return value;
  }
}

function booleanOf(text: string): boolean | undefined {
  const word = text.trim().toLowerCase();
  return word === 'true' ? true : word === 'false' ? false : undefined;
}

function jsonOfType(text: string, type: 'array' | 'object'): unknown {
  try {
    const value: unknown = JSON.parse(text);
    const isArray = Array.isArray(value);
    const matches = type === 'array' ? isArray : typeof value === 'object' && value !== null && !isArray;
    return matches ? value : undefined;
  } catch {
    return undefined;
  }
}
