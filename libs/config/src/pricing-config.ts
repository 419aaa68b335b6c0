import type { ModelPrice } from '@app/contracts';
import type { ConfigProblem } from './config.error';
import { parseValue } from './parse-value';

const FIELDS = ['input_per_mtok', 'output_per_mtok'] as const;
/** The prompt cache's prices; each is the input price when left out. */
const CACHE_FIELDS = ['cached_input_per_mtok', 'cache_write_per_mtok'] as const;
const KNOWN: readonly string[] = [...FIELDS, ...CACHE_FIELDS];
const PRICE = { path: '', env: '', type: 'number', min: 0, unit: 'USD per million tokens' } as const;

/**
 * Reads `pricing` from the configuration file: `{<model>: {input_per_mtok, output_per_mtok,
 * cached_input_per_mtok?, cache_write_per_mtok?}}`, the price of each model in USD per million
 * tokens (a mapping keyed by model, which the flat key table cannot express); prompt tokens read
 * from the provider's cache and written to it have their own prices, the input price when left out.
 * Every bad entry is a problem naming its key; a model left out has no price.
 */
export function parsePricing(raw: unknown): {
  pricing: Record<string, ModelPrice>;
  problems: ConfigProblem[];
} {
  const pricing: Record<string, ModelPrice> = {};
  const problems: ConfigProblem[] = [];
  if (raw === undefined || raw === null || raw === '') return { pricing, problems };
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    problems.push({ key: 'pricing', detail: 'must be a mapping of model names to prices' });
    return { pricing, problems };
  }
  for (const [model, entry] of Object.entries(raw as Record<string, unknown>)) {
    const price = parsePrice(`pricing.${model}`, entry, problems);
    if (price) pricing[model] = price;
  }
  return { pricing, problems };
}

function parsePrice(key: string, entry: unknown, problems: ConfigProblem[]): ModelPrice | undefined {
  if (!entry || typeof entry !== 'object' || Array.isArray(entry)) {
    problems.push({
      key,
      detail:
        'must be a mapping {input_per_mtok, output_per_mtok}; e.g. {input_per_mtok: 0.15, output_per_mtok: 0.6}',
    });
    return undefined;
  }
  const given = entry as Record<string, unknown>;
  const before = problems.length;
  for (const name of Object.keys(given).filter((name) => !KNOWN.includes(name)))
    problems.push({
      key: `${key}.${name}`,
      detail: `unknown setting; a price has ${FIELDS.join(' and ')}, and may have ${CACHE_FIELDS.join(' and ')}`,
    });
  const values = FIELDS.map((field) => {
    if (given[field] === undefined || given[field] === null || given[field] === '') {
      problems.push({ key: `${key}.${field}`, detail: 'is required (USD per million tokens); e.g. 0.15' });
      return 0;
    }
    const { value, error } = parseValue(PRICE, given[field]);
    if (error) problems.push({ key: `${key}.${field}`, detail: `${error}; e.g. 0.15` });
    return value as number;
  });
  const cache: Partial<ModelPrice> = {};
  for (const field of CACHE_FIELDS) {
    if (given[field] === undefined || given[field] === null || given[field] === '') continue;
    const { value, error } = parseValue(PRICE, given[field]);
    if (error) problems.push({ key: `${key}.${field}`, detail: `${error}; e.g. 0.015` });
    else cache[field] = value as number;
  }
  if (problems.length > before) return undefined;
  return { input_per_mtok: values[0], output_per_mtok: values[1], ...cache };
}
