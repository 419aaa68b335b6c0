import { TransformationType } from 'class-transformer';
import { defaultMetadataStorage } from 'class-transformer/cjs/storage';
import type { DtoClass, JsonSchema } from './schema-types';

/**
 * What a rule's strictness depends on in class-validator's metadata, declared here so that the
 * declarations of this lib (which the packed client ships) need no class-validator.
 */
export interface RuleMetadata {
  type: string;
  name?: string;
  each?: boolean;
  groups?: string[];
  context?: unknown;
  constraints?: unknown[];
}

/** A DTO whose derived JSON Schema could accept a value its class-validator rules refuse. */
export class LaxSchemaError extends Error {}

/** The JSON type each rule demands (class-validator refuses a value of any other type). */
const DEMANDED_TYPE: Record<string, string> = {
  isString: 'string',
  matches: 'string',
  maxLength: 'string',
  minLength: 'string',
  isInt: 'integer',
  isNumber: 'number',
  min: 'number',
  max: 'number',
  isBoolean: 'boolean',
  isObject: 'object',
  isArray: 'array',
  arrayNotEmpty: 'array',
  arrayMinSize: 'array',
  arrayMaxSize: 'array',
};

/**
 * Throws unless the class's instances are its plain input (no default, no exclusion): a value the
 * schema accepts is then used as it came, without class-transformer.
 */
export function assertPlainClass(cls: DtoClass): void {
  const sample = new (cls as new () => object)() as Record<string, unknown>;
  const defaulted = Object.keys(sample).find((key) => sample[key] !== undefined);
  if (defaulted) throw new LaxSchemaError(`${cls.name}.${defaulted} has a default`);
  if (
    defaultMetadataStorage.getExcludedMetadatas(cls).length +
    defaultMetadataStorage.getExposedMetadatas(cls).length
  )
    throw new LaxSchemaError(`${cls.name} uses @Exclude/@Expose`);
}

/**
 * Throws unless the property's derived schema refuses every value its rules refuse: each rule has
 * a keyword at least as strict, of the type the rule demands (a `minimum` alone would let a string
 * through; `@Min` refuses it). A condition (`@IsOptional`, `@ValidateIf`) only ever lifts rules,
 * so a schema that always applies them is stricter still.
 */
export function assertStrictProperty(
  cls: DtoClass,
  name: string,
  rules: RuleMetadata[],
  schema: JsonSchema,
): void {
  const where = `${cls.name}.${name}`;
  if (defaultMetadataStorage.findTransformMetadatas(cls, name, TransformationType.PLAIN_TO_CLASS).length)
    throw new LaxSchemaError(`${where} is transformed (@Transform)`);
  const typed = defaultMetadataStorage.findTypeMetadata(cls, name);
  const nested = rules.some((m) => m.type === 'nestedValidation');
  if (typed && (typed.options?.discriminator || !nested))
    throw new LaxSchemaError(`${where} is converted by @Type`);
  // Without @Type the nested value stays a plain object, which class-validator refuses outright.
  if (nested && !typed) throw new LaxSchemaError(`${where} is nested without @Type`);
  for (const rule of rules) {
    if (!strictRule(rule))
      throw new LaxSchemaError(`${where}: ${rule.name ?? rule.type} has no strict schema`);
    const demanded = rule.name ? DEMANDED_TYPE[rule.name] : undefined;
    const type = rule.each ? (schema.items as JsonSchema | undefined)?.type : schema.type;
    if (demanded && !isOfType(type, demanded))
      throw new LaxSchemaError(
        `${where}: ${rule.name} needs type ${demanded}, the schema says ${String(type)}`,
      );
  }
}

function strictRule(rule: RuleMetadata): boolean {
  const context = rule.context as { jsonSchema?: unknown } | undefined;
  if (rule.groups?.length || context?.jsonSchema) return false;
  if (['nestedValidation', 'whitelistValidation', 'conditionalValidation'].includes(rule.type)) return true;
  if (rule.type !== 'customValidation') return false;
  const [first] = (rule.constraints ?? []) as unknown[];
  // class-validator compares with ===, ajv's enum by deep equality: alike for primitives only.
  if (rule.name === 'isIn') return (first as unknown[]).every((v) => v === null || typeof v !== 'object');
  if (rule.name === 'matches') return first instanceof RegExp && sameUnderUnicodeFlag(first);
  // class-validator does not count a variation selector after a character, ajv does: the counts
  // differ, but only a string without characters has a length of 0 in either.
  if (rule.name === 'minLength') return (first as number) <= 1;
  if (rule.name === 'isNumber')
    return (first as { maxDecimalPlaces?: number })?.maxDecimalPlaces === undefined;
  return rule.name !== undefined && DEMANDED_TYPE[rule.name] !== undefined;
}

/** A `null` beside the type is for `@IsOptional`, which class-validator skips for null. */
function isOfType(type: unknown, demanded: string): boolean {
  const types = (Array.isArray(type) ? type : [type]).filter((t) => t !== 'null');
  return types.length === 1 && (types[0] === demanded || (demanded === 'number' && types[0] === 'integer'));
}

/**
 * ajv compiles patterns with the `u` flag. A pattern without it matches the same strings under it
 * unless it has a construct that reads a character outside the BMP differently (`.`, a negated
 * class or escape, a surrogate); any other flag is not carried over at all.
 */
function sameUnderUnicodeFlag(pattern: RegExp): boolean {
  if (pattern.flags === 'u') return true;
  if (pattern.flags !== '') return false;
  const source = pattern.source;
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === '\\') {
      const next = source[++i] ?? '';
      if ('SWDBPp'.includes(next) || (next === 'u' && /^[dD][89a-fA-F]/.test(source.slice(i + 1))))
        return false;
    } else if (c === '[') {
      if (source[i + 1] === '^') return false;
      inClass = true;
    } else if (c === ']') inClass = false;
    else if ((c === '.' && !inClass) || /[\uD800-\uDFFF]/.test(c)) return false;
  }
  return true;
}
