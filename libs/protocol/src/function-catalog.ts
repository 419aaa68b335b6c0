import { countTokens } from './tokens';
import { PARAMETER_TYPES, type ParameterSchema, type PromptFunction } from './types';

/** The built-in that gives a function's full signature when the prompt lists names only. */
export const FUNCTION_DESCRIBE = 'function_describe';

export interface CatalogOptions {
  /** Most tokens the definitions may take; over it, the brief listing is used. */
  budget?: number;
  /** Model whose tokenizer counts the budget; o200k_base when omitted. */
  model?: string;
}

/** Words of a description kept in the brief listing, at most; fewer when the budget is tight. */
const BRIEF_WORDS = 12;

/**
 * Lists functions for a system prompt as TypeScript-like signatures, which models read fluently
 * and which cost fewer tokens than JSON Schema: `?` marks an optional parameter, `a|b` an enum,
 * `1..365` a range, `=7` a default, `{a: string}` an object's shape, `(…)` after a parameter its
 * description; the function's description follows. Values are written as a call writes them: a
 * plain word bare, anything else (a number-like or empty string, a word such as `true` or
 * `string`) as JSON.
 *
 *   clean_logs(path: string (Directory to clean), days?: integer 1..365 =7): Delete old log files.
 *
 * A parameter's description in the signature costs ` (` and `)` where a line of its own cost a
 * newline, the indentation, the name and a colon; `=7` saves the token o200k_base spends on the
 * space before a digit; a bare `admin|editor` the token each quote costs.
 *
 * When that is over `budget` tokens, each function gets one line, its name and the start of its
 * description (as many words as the budget allows); when not even one word fits, the names alone,
 * grouped by their first `_` segment (`crm_{list_contacts,get_contact}`). Either way
 * `function_describe` gives a full signature on demand. The names are always all there: a model
 * cannot call what it was never told of.
 */
export function describeFunctions(functions: PromptFunction[], options: CatalogOptions = {}): string {
  const full = ['## Functions', ...functions.map(describeFunction)].join('\n');
  const { budget, model } = options;
  if (budget === undefined) return full;
  // Counting the catalog's tokens costs more than building the whole prompt, and a deployment's
  // runs list the same few catalogs turn after turn: the fitted listing is kept per catalog.
  const key = `${model ?? ''}\u0000${budget}\u0000${full}`;
  let fitted = fittedCatalogs.get(key);
  if (fitted === undefined) {
    fitted = fitCatalog(functions, full, budget, model);
    if (fittedCatalogs.size >= FITTED_KEPT) fittedCatalogs.delete(fittedCatalogs.keys().next().value!);
    fittedCatalogs.set(key, fitted);
  }
  return fitted;
}

/** Catalogs fitted to a budget, oldest first; a handful covers the profiles a process serves. */
const fittedCatalogs = new Map<string, string>();
const FITTED_KEPT = 32;

function fitCatalog(functions: PromptFunction[], full: string, budget: number, model?: string): string {
  if (countTokens(full, model) <= budget) return full;
  const brief = (words: number) => briefCatalog(functions, words);
  let words = BRIEF_WORDS;
  while (words > 0 && countTokens(brief(words), model) > budget) words -= words > 4 ? 2 : 1;
  return brief(words);
}

/** One function's full signature block, as listed in the prompt and by `function_describe`. */
export function describeFunction(fn: PromptFunction): string {
  const required = new Set(fn.parameters.required ?? []);
  const signature = Object.entries(fn.parameters.properties)
    .map(([name, schema]) => parameterText(name, schema, required.has(name)) + describedAs(schema))
    .join(', ');
  return `${fn.name}(${signature}): ${oneLine(fn.description)}`;
}

function describedAs(schema: ParameterSchema): string {
  const description = schema.description?.trim();
  return description ? ` (${oneLine(description)})` : '';
}

function briefCatalog(functions: PromptFunction[], words: number): string {
  const lines =
    words > 0
      ? functions.map((fn) => `${fn.name}: ${firstWords(fn.description, words)}`)
      : groupedNames(functions.map((fn) => fn.name));
  const grouping = words > 0 ? '' : '; a_{b,c} stands for a_b and a_c';
  return [
    `## Functions (call ${FUNCTION_DESCRIBE} for one's parameters before calling it${grouping})`,
    `${FUNCTION_DESCRIBE}(name: string): Full signature of a function`,
    ...lines,
  ].join('\n');
}

/** Names sharing a first `_` segment on one line, as `crm_{list_contacts,get_contact}`. */
function groupedNames(names: string[]): string[] {
  const groups = new Map<string, string[]>();
  for (const name of names) {
    const cut = name.indexOf('_');
    const prefix = cut > 0 && cut < name.length - 1 ? name.slice(0, cut + 1) : name;
    groups.set(prefix, [...(groups.get(prefix) ?? []), name.slice(prefix.length)]);
  }
  return [...groups].map(([prefix, rests]) =>
    rests.length === 1 ? `${prefix}${rests[0]}` : `${prefix}{${rests.join(',')}}`,
  );
}

function parameterText(name: string, schema: ParameterSchema, required: boolean): string {
  return `${name}${required ? '' : '?'}: ${typeOf(schema)}${rangeOf(schema)}${defaultOf(schema)}`;
}

/** An enum as its values, an array as `item[]`, an object with known fields as its shape. */
function typeOf(schema: Omit<ParameterSchema, 'type'> & { type: string }): string {
  if (schema.enum?.length) return schema.enum.map(literal).join('|');
  if (schema.type === 'array' && schema.items) {
    const item = typeOf(schema.items);
    return `${item.includes('|') ? `(${item})` : item}[]`;
  }
  if (schema.type === 'object' && schema.properties) {
    const required = new Set(schema.required ?? []);
    const fields = Object.entries(schema.properties).map(([name, field]) =>
      parameterText(name, field, required.has(name)),
    );
    return `{${fields.join(', ')}}`;
  }
  return schema.type;
}

function rangeOf({ minimum, maximum }: Omit<ParameterSchema, 'type'>): string {
  if (minimum !== undefined && maximum !== undefined) return ` ${minimum}..${maximum}`;
  if (minimum !== undefined) return ` >=${minimum}`;
  return maximum !== undefined ? ` <=${maximum}` : '';
}

function defaultOf(schema: Omit<ParameterSchema, 'type'>): string {
  return schema.default === undefined ? '' : ` =${literal(schema.default)}`;
}

/** A plain word as a call writes it, bare; anything else as JSON (`"2026"`, `""`, `"true"`, `[1]`). */
function literal(value: unknown): string {
  return typeof value === 'string' && PLAIN_WORD.test(value) && !RESERVED_WORDS.has(value)
    ? value
    : JSON.stringify(value);
}

const PLAIN_WORD = /^[A-Za-z_][\w-]*$/;
/** Words that would read as a type or a JSON value, not as the string. */
const RESERVED_WORDS = new Set(['true', 'false', 'null', ...PARAMETER_TYPES]);

function oneLine(text: string): string {
  return text.trim().replace(/\s*\n\s*/g, ' ');
}

function firstWords(text: string, count: number): string {
  if (count === 0) return '';
  const words = oneLine(text).split(' ');
  return words.length <= count ? words.join(' ') : `${words.slice(0, count).join(' ')}…`;
}
