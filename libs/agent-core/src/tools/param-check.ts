import type { FieldError, FunctionDefinition } from '@app/contracts';
import { validateParams } from '@app/protocol/portable';

/**
 * Checks a call's parameters against the function's definition before it is sent, so a model's
 * mistake costs no round trip and comes back listing every bad field; the provider validates
 * again with the same validator. An unknown parameter is answered with the known ones, which is
 * what a model needs to correct its call.
 */
export function paramErrors(definition: FunctionDefinition, params: Record<string, unknown>): FieldError[] {
  const { properties } = definition.parameters;
  let result;
  try {
    result = validateParams(definition.parameters, params);
  } catch {
    // A schema the validator cannot compile: the provider that declared it has the last word.
    return [];
  }
  if (result.ok) return [];
  return result.errors.map(({ path, message }) =>
    Object.hasOwn(properties, rootOf(path))
      ? { field: path, message }
      : {
          field: path,
          message: `is not a parameter of ${definition.name} (known: ${Object.keys(properties).join(', ') || 'none'})`,
        },
  );
}

function rootOf(path: string): string {
  return /^[^.[]*/.exec(path)![0];
}
