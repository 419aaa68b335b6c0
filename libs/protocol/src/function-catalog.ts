import type { ParameterSchema, PromptFunction } from './types';

/**
 * Lists functions for a system prompt in TypeScript-like notation, which models read fluently
 * and which costs fewer tokens than prose: `?` marks an optional parameter, `a|b` an enum,
 * `1..365` a range, `= 7` a default and `//` starts the description.
 *
 *   clean_logs: Delete log files older than N days.
 *   - path: string // Directory to clean
 *   - days?: integer 1..365 = 7 // Keep the last N days
 */
export function describeFunctions(functions: PromptFunction[]): string {
  return ['## Functions (? marks an optional parameter)', ...functions.map(describeFunction)].join('\n');
}

function describeFunction(fn: PromptFunction): string {
  const required = new Set(fn.parameters.required ?? []);
  const params = Object.entries(fn.parameters.properties).map(([name, schema]) =>
    describeParameter(name, schema, required.has(name)),
  );
  return [`${fn.name}: ${fn.description.trim()}`, ...params].join('\n');
}

function describeParameter(name: string, schema: ParameterSchema, required: boolean): string {
  const signature = `- ${name}${required ? '' : '?'}: ${typeOf(schema)}${rangeOf(schema)}${defaultOf(schema)}`;
  return schema.description ? `${signature} // ${schema.description.trim()}` : signature;
}

/** An enum is written as its values; an array as `item[]`. */
function typeOf(schema: ParameterSchema): string {
  if (schema.enum?.length) return schema.enum.map(valueText).join('|');
  return schema.type === 'array' && schema.items ? `${schema.items.type}[]` : schema.type;
}

function rangeOf({ minimum, maximum }: ParameterSchema): string {
  if (minimum !== undefined && maximum !== undefined) return ` ${minimum}..${maximum}`;
  if (minimum !== undefined) return ` >=${minimum}`;
  return maximum !== undefined ? ` <=${maximum}` : '';
}

function defaultOf(schema: ParameterSchema): string {
  return schema.default === undefined ? '' : ` = ${valueText(schema.default)}`;
}

function valueText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}
