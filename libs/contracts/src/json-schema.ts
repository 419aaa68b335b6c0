import { defaultMetadataStorage } from 'class-transformer/cjs/storage';
import { getMetadataStorage } from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';
import { assertStrictProperty, assertPlainClass } from './schema-strictness';
import type { DtoClass, JsonSchema } from './schema-types';

export type { DtoClass, JsonSchema } from './schema-types';

/**
 * JSON Schemas of DTO classes, read from their class-validator rules: the rules `parseDto` enforces
 * are the only description of a DTO, so a document built from them cannot drift from what the
 * validator demands. Nested DTOs (`@ValidateNested() @Type(() => X)`) become `$ref`s to their own
 * schema, which is added too. `@IsOptional()` fields are not required and may be null (as the
 * validator allows). `@Allow()` marks a field of any value. A custom validator describes itself with
 * `context: { jsonSchema: {...} }` in its options; any validator may add `context: { description }`.
 * `strict` (to validate with the schemas) throws `LaxSchemaError` unless they refuse every value
 * the rules refuse and the classes' instances are their plain input.
 */
export function dtoSchemas(
  classes: DtoClass[],
  options: { closed?: boolean; strict?: boolean; ref?: (name: string) => string } = {},
): Record<string, JsonSchema> {
  const ref = options.ref ?? ((name: string) => `#/components/schemas/${name}`);
  const schemas: Record<string, JsonSchema> = {};
  const seen = new Map<string, DtoClass>();
  const queue = [...classes];
  while (queue.length > 0) {
    const cls = queue.shift()!;
    const other = seen.get(cls.name);
    if (other === cls) continue;
    if (other) throw new Error(`two DTO classes are named ${cls.name}: schema names must be unique`);
    seen.set(cls.name, cls);
    schemas[cls.name] = classSchema(cls, options, (nested) => {
      queue.push(nested);
      return { $ref: ref(nested.name) };
    });
  }
  return schemas;
}

function classSchema(
  cls: DtoClass,
  { closed, strict }: { closed?: boolean; strict?: boolean },
  refTo: (cls: DtoClass) => JsonSchema,
): JsonSchema {
  if (strict) assertPlainClass(cls);
  const metadatas = getMetadataStorage().getTargetValidationMetadatas(cls, '', true, false);
  if (metadatas.length === 0) throw new Error(`${cls.name} has no class-validator rules to describe it`);
  const byProperty = new Map<string, ValidationMetadata[]>();
  for (const m of metadatas) byProperty.set(m.propertyName, [...(byProperty.get(m.propertyName) ?? []), m]);
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const [name, rules] of byProperty) {
    const optional = rules.some((m) => m.type === 'conditionalValidation' && m.name === 'isOptional');
    properties[name] = propertySchema(cls, name, rules, optional, refTo);
    if (strict) assertStrictProperty(cls, name, rules, properties[name]);
    if (!optional) required.push(name);
  }
  return {
    type: 'object',
    properties,
    ...(required.length ? { required } : {}),
    ...(closed ? { additionalProperties: false } : {}),
  };
}

function propertySchema(
  cls: DtoClass,
  name: string,
  rules: ValidationMetadata[],
  optional: boolean,
  refTo: (cls: DtoClass) => JsonSchema,
): JsonSchema {
  const own: JsonSchema = {};
  const items: JsonSchema = {};
  for (const rule of rules) {
    const target = rule.each ? items : own;
    if (rule.type === 'nestedValidation') {
      const nested = nestedClass(cls, name);
      if (!nested) throw new Error(`${cls.name}.${name}: @ValidateNested needs @Type(() => Class)`);
      Object.assign(rule.each || isArrayRule(rules) ? items : own, refTo(nested));
    }
    Object.assign(target, keywords(rule));
    const context = rule.context as { jsonSchema?: JsonSchema; description?: string } | undefined;
    if (context?.jsonSchema) Object.assign(target, context.jsonSchema);
    if (context?.description) own.description = context.description;
  }
  if (Object.keys(items).length > 0) Object.assign(own, { type: 'array', items });
  if (own.type === undefined && own.$ref === undefined && own.enum === undefined) {
    const fromDesign = DESIGN_TYPES.get(Reflect.getMetadata('design:type', cls.prototype, name));
    if (fromDesign && !rules.some((m) => m.type === 'whitelistValidation')) own.type = fromDesign;
  }
  if (optional && typeof own.type === 'string') own.type = [own.type, 'null'];
  else if (optional && Array.isArray(own.type) && !own.type.includes('null'))
    own.type = [...own.type, 'null'];
  return own;
}

function isArrayRule(rules: ValidationMetadata[]): boolean {
  return rules.some((m) => m.name === 'isArray');
}

function nestedClass(cls: DtoClass, name: string): DtoClass | undefined {
  const typed = defaultMetadataStorage.findTypeMetadata(cls, name)?.typeFunction();
  const design = Reflect.getMetadata('design:type', cls.prototype, name) as DtoClass | undefined;
  return typed ?? (design && design !== Array && design !== Object ? design : undefined);
}

const DESIGN_TYPES = new Map<unknown, string>([
  [String, 'string'],
  [Number, 'number'],
  [Boolean, 'boolean'],
  [Array, 'array'],
]);

/** The JSON Schema keywords of one class-validator rule; rules without an equivalent add nothing. */
function keywords(rule: ValidationMetadata): JsonSchema {
  const [first] = (rule.constraints ?? []) as unknown[];
  switch (rule.name) {
    case 'isString':
      return { type: 'string' };
    case 'matches':
      return { type: 'string', pattern: (first as RegExp).source };
    case 'minLength':
      return { type: 'string', minLength: first };
    case 'maxLength':
      return { type: 'string', maxLength: first };
    case 'isInt':
      return { type: 'integer' };
    case 'isNumber':
      return { type: 'number' };
    case 'min':
      return { minimum: first };
    case 'max':
      return { maximum: first };
    case 'isBoolean':
      return { type: 'boolean' };
    case 'isObject':
      return { type: 'object' };
    case 'isIn':
      return { enum: [...(first as unknown[])] };
    case 'isArray':
      return { type: 'array' };
    case 'arrayNotEmpty':
      return { type: 'array', minItems: 1 };
    case 'arrayMinSize':
      return { type: 'array', minItems: first };
    case 'arrayMaxSize':
      return { type: 'array', maxItems: first };
    default:
      return {};
  }
}
