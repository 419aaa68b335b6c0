import type { JsonSchemaType, ParameterSchema } from '@app/contracts';
import type { FunctionParameters } from '@app/functions';
import { matchesType, PARAMETER_TYPES } from '@app/protocol';

type Json = Record<string, unknown>;

const TYPES: readonly JsonSchemaType[] = PARAMETER_TYPES;
const MAX_SHAPE_CHARS = 400;

/**
 * A tool's `inputSchema` in the platform's parameter form, which the runner validates calls
 * against (the same path as custom functions). Each top-level property keeps its type, enum,
 * default and bounds; what that form cannot express (the shape of nested objects and array
 * items) is appended to the description as compact JSON Schema so the model still sees it.
 * Throws, with the reason, when a property has no usable type.
 */
export function toFunctionParameters(inputSchema: unknown): FunctionParameters {
  const schema = (inputSchema ?? {}) as Json;
  if (schema.type !== undefined && schema.type !== 'object')
    throw new Error(`its inputSchema has type '${String(schema.type)}', not object`);
  const properties = (schema.properties ?? {}) as Record<string, Json>;
  const required = Array.isArray(schema.required) ? schema.required.map(String) : [];
  return {
    type: 'object',
    properties: Object.fromEntries(
      Object.entries(properties).map(([name, prop]) => [name, toParameter(name, prop ?? {})]),
    ),
    required: required.filter((name) => name in properties),
  };
}

function toParameter(name: string, prop: Json): ParameterSchema {
  const type = typeOf(prop);
  if (!type) throw new Error(`parameter '${name}' has no single JSON type the platform can check`);
  const out: ParameterSchema = { type };
  const description = describe(prop, type);
  if (description) out.description = description;
  if (Array.isArray(prop.enum) && prop.enum.length > 0) out.enum = prop.enum;
  if (prop.default !== undefined && matchesType(prop.default, type)) out.default = prop.default;
  if (type === 'number' || type === 'integer') {
    if (typeof prop.minimum === 'number') out.minimum = prop.minimum;
    if (typeof prop.maximum === 'number') out.maximum = prop.maximum;
  }
  const items = prop.items as Json | undefined;
  if (type === 'array' && items && TYPES.includes(items.type as JsonSchemaType))
    out.items = { type: items.type as JsonSchemaType };
  return out;
}

/** A type, a `[type, "null"]` pair, or a `anyOf` of one type and null. */
function typeOf(prop: Json): JsonSchemaType | undefined {
  const candidates = Array.isArray(prop.type)
    ? prop.type
    : prop.type !== undefined
      ? [prop.type]
      : Array.isArray(prop.anyOf)
        ? (prop.anyOf as Json[]).map((s) => s?.type)
        : inferred(prop);
  const real = candidates.filter((t) => t !== 'null');
  return real.length === 1 && TYPES.includes(real[0] as JsonSchemaType)
    ? (real[0] as JsonSchemaType)
    : undefined;
}

function inferred(prop: Json): unknown[] {
  if (prop.properties) return ['object'];
  if (prop.items) return ['array'];
  if (Array.isArray(prop.enum) && prop.enum.length > 0) {
    const kinds = new Set(prop.enum.map((v) => typeof v));
    return kinds.size === 1 ? [...kinds] : [];
  }
  return [];
}

function describe(prop: Json, type: JsonSchemaType): string {
  const text = typeof prop.description === 'string' ? prop.description : '';
  const nested =
    type === 'object' && prop.properties
      ? prop
      : type === 'array' && (prop.items as Json | undefined)?.properties
        ? (prop.items as Json)
        : undefined;
  if (!nested) return text;
  const shape = JSON.stringify({ properties: nested.properties, required: nested.required });
  const hint = `${type === 'array' ? 'each item' : 'shape'}: ${shape.slice(0, MAX_SHAPE_CHARS)}`;
  return text ? `${text} (${hint})` : hint;
}
