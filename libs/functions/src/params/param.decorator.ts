import 'reflect-metadata';
import type { JsonSchemaType, ParameterSchema } from '@app/contracts/portable';
import { matchesType, PARAMETER_TYPES } from '@app/protocol/portable';

/** What a parameter is (`desc`, `required`, `default`, …), declared on a field of the parameter class. */
export interface ParamOptions {
  description: string;
  /** Inferred from the field's TS type for string, number and boolean; give it for the rest. */
  type?: JsonSchemaType;
  required?: boolean;
  default?: unknown;
  enum?: readonly unknown[];
  /** Bounds of a number, or of each number in an array. */
  min?: number;
  max?: number;
  /** A string's form (a regular expression, read with the `u` flag) and length. */
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  /** Type of each element of an array. */
  items?: JsonSchemaType;
}

export interface ParamEntry {
  name: string;
  schema: ParameterSchema;
  required: boolean;
}

const PARAMS = Symbol('agentchassis:params');
const TYPES: readonly JsonSchemaType[] = PARAMETER_TYPES;
const DESIGN_TYPES = new Map<unknown, JsonSchemaType>([
  [String, 'string'],
  [Number, 'number'],
  [Boolean, 'boolean'],
  [Array, 'array'],
]);

/**
 * Declares one parameter: records its JSON Schema, which is both the definition the model sees
 * and what every call is validated against (`validateParams` of @app/protocol).
 */
export function Param(options: ParamOptions): PropertyDecorator {
  return (target, property) => {
    const where = `@Param ${target.constructor.name}.${String(property)}`;
    if (typeof property !== 'string') throw new Error(`${where}: parameter names must be strings`);
    const type = options.type ?? DESIGN_TYPES.get(Reflect.getMetadata('design:type', target, property));
    if (!type) throw new Error(`${where}: cannot infer the type; give one of ${TYPES.join(', ')}`);
    checkOptions(where, type, options);
    addEntry(target.constructor, {
      name: property,
      schema: toSchema(type, options),
      required: options.required === true,
    });
  };
}

/** The parameters declared on a class (and its parents), in declaration order. */
export function paramEntries(cls: object): ParamEntry[] {
  return (Reflect.getMetadata(PARAMS, cls) as ParamEntry[] | undefined) ?? [];
}

function addEntry(cls: object, entry: ParamEntry): void {
  const entries = paramEntries(cls).filter((e) => e.name !== entry.name);
  Reflect.defineMetadata(PARAMS, [...entries, entry], cls);
}

/** Bounds and choices of an array apply to each of its items. */
function toSchema(type: JsonSchemaType, o: ParamOptions): ParameterSchema {
  const schema: ParameterSchema = { type };
  if (o.description) schema.description = o.description;
  if (o.default !== undefined) schema.default = o.default;
  if (o.items) schema.items = { type: o.items };
  Object.assign(schema.items ?? schema, limits(o));
  return schema;
}

function limits(o: ParamOptions): Partial<ParameterSchema> {
  const out: Partial<ParameterSchema> = {};
  if (o.enum) out.enum = [...o.enum];
  if (o.min !== undefined) out.minimum = o.min;
  if (o.max !== undefined) out.maximum = o.max;
  if (o.pattern !== undefined) out.pattern = o.pattern;
  if (o.minLength !== undefined) out.minLength = o.minLength;
  if (o.maxLength !== undefined) out.maxLength = o.maxLength;
  return out;
}

function checkOptions(where: string, type: JsonSchemaType, o: ParamOptions): void {
  const fail = (detail: string) => {
    throw new Error(`${where}: ${detail}`);
  };
  if (!TYPES.includes(type)) fail(`unknown type '${String(type)}'; use one of ${TYPES.join(', ')}`);
  if (o.items !== undefined && (type !== 'array' || !TYPES.includes(o.items)))
    fail('items needs type array and a known item type');
  const numeric = type === 'number' || type === 'integer' || o.items === 'number' || o.items === 'integer';
  if ((o.min !== undefined || o.max !== undefined) && !numeric) fail('min and max apply to numbers only');
  for (const bound of [o.min, o.max])
    if (bound !== undefined && !Number.isFinite(bound)) fail('min and max must be finite numbers');
  const textual = type === 'string' || o.items === 'string';
  if ((o.pattern !== undefined || o.minLength !== undefined || o.maxLength !== undefined) && !textual)
    fail('pattern, minLength and maxLength apply to strings only');
  if (o.enum !== undefined && (!Array.isArray(o.enum) || o.enum.length === 0))
    fail('enum must be a non-empty list');
  if (o.enum !== undefined && type === 'array' && o.items === undefined)
    fail('enum of an array applies to its items: give their type (items)');
  if (o.default !== undefined && !matchesType(o.default, type))
    fail(`default ${JSON.stringify(o.default)} is not of type ${type}`);
}
