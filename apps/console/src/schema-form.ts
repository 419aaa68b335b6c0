import type { FunctionDefinition, ParameterSchema } from '@app/client';

/** One control of a "Try it" form, derived from a property of the function's JSON Schema. */
export interface FormField {
  name: string;
  /** `text`, `number` (integer or number), `checkbox`, `select` (an enum), `json` (object, array, anything else). */
  control: 'text' | 'number' | 'checkbox' | 'select' | 'json';
  required: boolean;
  integer: boolean;
  description?: string;
  /** An enum's choices: `value` is the JSON the call sends, `label` what a person reads (strings unquoted). */
  options?: { value: string; label: string }[];
  /** The form's starting text: the schema's default, else empty. */
  initial: string;
  min?: number;
  max?: number;
}

export function fieldsOf(parameters: FunctionDefinition['parameters']): FormField[] {
  const required = new Set(parameters?.required ?? []);
  return Object.entries(parameters?.properties ?? {}).map(([name, schema]) =>
    fieldOf(name, schema, required.has(name)),
  );
}

function fieldOf(name: string, schema: ParameterSchema, required: boolean): FormField {
  const base = { name, required, integer: schema.type === 'integer', description: schema.description };
  const initial =
    schema.default === undefined
      ? ''
      : typeof schema.default === 'string'
        ? schema.default
        : JSON.stringify(schema.default);
  if (schema.enum)
    return {
      ...base,
      control: 'select',
      options: schema.enum.map((v) => ({
        value: JSON.stringify(v),
        label: typeof v === 'string' ? v : JSON.stringify(v),
      })),
      initial: schema.default === undefined ? '' : JSON.stringify(schema.default),
    };
  switch (schema.type) {
    case 'string':
      return { ...base, control: 'text', initial };
    case 'integer':
    case 'number':
      return { ...base, control: 'number', initial, min: schema.minimum, max: schema.maximum };
    case 'boolean':
      return { ...base, control: 'checkbox', initial: schema.default === true ? 'true' : 'false' };
    default:
      return { ...base, control: 'json', initial };
  }
}

/**
 * The form's values as the call's params. An empty optional field is left out; an empty required
 * one is sent as nothing too, so the platform answers with its own validation error. Only text
 * that cannot be read at all (a JSON field that is not JSON) is refused here.
 */
export function paramsOf(
  fields: FormField[],
  values: Record<string, string>,
): { params: Record<string, unknown> } | { error: string } {
  const params: Record<string, unknown> = {};
  for (const field of fields) {
    const raw = values[field.name] ?? field.initial;
    if (field.control === 'checkbox') {
      params[field.name] = raw === 'true';
      continue;
    }
    if (raw.trim() === '') continue;
    if (field.control === 'text') params[field.name] = raw;
    else if (field.control === 'number') params[field.name] = Number(raw);
    else {
      try {
        params[field.name] = JSON.parse(raw);
      } catch {
        if (field.control === 'select') params[field.name] = raw;
        else return { error: `${field.name}: not valid JSON` };
      }
    }
  }
  return { params };
}
