import 'reflect-metadata';
import {
  IsArray,
  IsBoolean,
  IsDefined,
  IsIn,
  IsInt,
  IsNumber,
  IsObject,
  IsOptional,
  IsString,
  Max,
  Min,
  type ValidationOptions,
} from 'class-validator';
import type { JsonSchemaType, ParameterSchema } from '@app/contracts';

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
  /** Type of each element of an array. */
  items?: JsonSchemaType;
}

export interface ParamEntry {
  name: string;
  schema: ParameterSchema;
  required: boolean;
}

const PARAMS = Symbol('agentchassis:params');
const TYPES: readonly JsonSchemaType[] = ['string', 'number', 'integer', 'boolean', 'array', 'object'];
const DESIGN_TYPES = new Map<unknown, JsonSchemaType>([
  [String, 'string'],
  [Number, 'number'],
  [Boolean, 'boolean'],
  [Array, 'array'],
]);

const TYPE_CHECKS: Record<JsonSchemaType, (o: ValidationOptions) => PropertyDecorator> = {
  string: (o) => IsString(o),
  number: (o) => IsNumber({ allowNaN: false, allowInfinity: false }, o),
  integer: (o) => IsInt(o),
  boolean: (o) => IsBoolean(o),
  array: (o) => IsArray(o),
  object: (o) => IsObject(o),
};

/**
 * Declares one parameter: records its schema for reflection and applies the matching
 * class-validator constraints, so the definition and the validation cannot disagree.
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
    for (const decorate of constraints(type, options)) decorate(target, property);
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

function toSchema(type: JsonSchemaType, o: ParamOptions): ParameterSchema {
  const schema: ParameterSchema = { type };
  if (o.description) schema.description = o.description;
  if (o.enum) schema.enum = [...o.enum];
  if (o.default !== undefined) schema.default = o.default;
  if (o.min !== undefined) schema.minimum = o.min;
  if (o.max !== undefined) schema.maximum = o.max;
  if (o.items) schema.items = { type: o.items };
  return schema;
}

function constraints(type: JsonSchemaType, o: ParamOptions): PropertyDecorator[] {
  const each = { each: type === 'array' };
  const list = [o.required ? IsDefined({ message: 'is required' }) : IsOptional(), TYPE_CHECKS[type]({})];
  if (type === 'array' && o.items) list.push(TYPE_CHECKS[o.items]({ each: true }));
  if (o.enum) list.push(IsIn([...o.enum], each));
  if (o.min !== undefined) list.push(Min(o.min, each));
  if (o.max !== undefined) list.push(Max(o.max, each));
  return list;
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
  if (o.enum !== undefined && (!Array.isArray(o.enum) || o.enum.length === 0))
    fail('enum must be a non-empty list');
  if (o.default !== undefined && !matchesType(o.default, type))
    fail(`default ${JSON.stringify(o.default)} is not of type ${type}`);
}

/** Whether a value is of a JSON Schema type (for defaults: the schema's own `default` must fit it). */
export function matchesType(value: unknown, type: JsonSchemaType): boolean {
  switch (type) {
    case 'integer':
      return Number.isInteger(value);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'array':
      return Array.isArray(value);
    case 'object':
      return typeof value === 'object' && value !== null && !Array.isArray(value);
    default:
      return typeof value === type;
  }
}
