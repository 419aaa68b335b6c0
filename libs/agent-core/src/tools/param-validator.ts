import type { FieldError, FunctionDefinition, JsonSchemaType, ParameterSchema } from '@app/contracts';

/**
 * Checks a call's parameters against the function's definition before it goes on the bus, so a
 * model's mistake costs no round trip and comes back listing every bad field. The provider
 * validates again; this is the executor's half of "validate against the schema".
 */
export function validateAgainstDefinition(
  definition: FunctionDefinition,
  params: Record<string, unknown>,
): FieldError[] {
  const { properties, required } = definition.parameters;
  const errors: FieldError[] = [];
  for (const name of required ?? []) {
    if (params[name] === undefined || params[name] === null)
      errors.push({ field: name, message: 'is required' });
  }
  for (const [name, value] of Object.entries(params)) {
    const schema = Object.hasOwn(properties, name) ? properties[name] : undefined;
    if (!schema) {
      errors.push({
        field: name,
        message: `is not a parameter of ${definition.name} (known: ${Object.keys(properties).join(', ') || 'none'})`,
      });
      continue;
    }
    if (value === undefined || value === null) continue;
    const problem = checkValue(value, schema);
    if (problem) errors.push({ field: name, message: problem });
  }
  return errors;
}

function checkValue(value: unknown, schema: ParameterSchema): string | undefined {
  if (!hasType(value, schema.type)) return `must be ${article(schema.type)}`;
  if (schema.enum?.length && !schema.enum.some((option) => option === value)) {
    return `must be one of ${schema.enum.map((option) => JSON.stringify(option)).join(', ')}`;
  }
  if (typeof value === 'number') {
    if (schema.minimum !== undefined && value < schema.minimum) return `must be at least ${schema.minimum}`;
    if (schema.maximum !== undefined && value > schema.maximum) return `must be at most ${schema.maximum}`;
  }
  if (Array.isArray(value) && schema.items) {
    const itemType = schema.items.type;
    const bad = value.findIndex((item) => !hasType(item, itemType));
    if (bad >= 0) return `item ${bad} must be ${article(itemType)}`;
  }
  return undefined;
}

function hasType(value: unknown, type: JsonSchemaType): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'integer':
      return Number.isInteger(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'array':
      return Array.isArray(value);
    case 'object':
      return typeof value === 'object' && value !== null && !Array.isArray(value);
    default:
      return true;
  }
}

function article(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}
