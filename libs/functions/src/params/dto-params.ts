import { type DtoClass, dtoSchemas, type JsonSchema, type JsonSchemaType } from '@app/contracts';
import { Param, type ParamOptions } from './param.decorator';

/** A field of the DTO as the model sees it: its description, and what to show differently. */
export type DtoParamOptions = Partial<ParamOptions> & { description: string };

/**
 * The parameters of a function that takes a request DTO (a REST body the model may also send):
 * type, required, enum, bounds, patterns and lengths are read from the DTO's class-validator
 * rules, so the function's JSON Schema checks all of them (ajv, the one validator) and each field is
 * declared once; the function adds descriptions, may narrow what the model sees (a shorter enum,
 * JSON text for a field that also takes an object) and may add fields the DTO does not have
 * (paging), declared in full. Only the fields listed are parameters, in the order listed; each
 * field the DTO requires must be among them.
 */
export function paramsFromDto<T extends object, Extra extends object = object>(
  dto: new () => T,
  fields: Record<string, DtoParamOptions>,
): new () => T & Extra {
  const schema = dtoSchemas([dto as DtoClass])[dto.name];
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema.required ?? []) as string[]);
  for (const name of required)
    if (!Object.hasOwn(fields, name))
      throw new Error(`${dto.name}.${name} is required: list it among the fields`);
  const cls = { [`${dto.name}Params`]: class {} }[`${dto.name}Params`];
  for (const [name, options] of Object.entries(fields)) {
    const field = Object.hasOwn(properties, name) ? properties[name] : undefined;
    const declared = field ? fromDto(field, required.has(name)) : {};
    Param({ ...declared, ...options })(cls.prototype, name);
  }
  return cls as new () => T & Extra;
}

function fromDto(field: JsonSchema, required: boolean): Partial<ParamOptions> {
  const options: Partial<ParamOptions> = { required };
  const types = [field.type ?? []].flat().filter((t) => t !== 'null') as JsonSchemaType[];
  const values = Array.isArray(field.enum) ? (field.enum as unknown[]) : undefined;
  if (types.length === 1) options.type = types[0];
  else if (types.length === 0 && values) options.type = typeOfValues(values);
  if (values) options.enum = values;
  if (typeof field.minimum === 'number') options.min = field.minimum;
  if (typeof field.maximum === 'number') options.max = field.maximum;
  if (options.type === 'string') {
    if (typeof field.pattern === 'string') options.pattern = field.pattern;
    if (typeof field.minLength === 'number') options.minLength = field.minLength;
    if (typeof field.maxLength === 'number') options.maxLength = field.maxLength;
  }
  return options;
}

function typeOfValues(values: unknown[]): JsonSchemaType | undefined {
  const kinds = new Set(values.map((v) => typeof v));
  const [kind] = kinds;
  return kinds.size === 1 && (kind === 'string' || kind === 'number' || kind === 'boolean')
    ? kind
    : undefined;
}
