import type { ErrorBody, FunctionDefinition, FunctionResult } from '@app/contracts';
import { describeFunction, FUNCTION_DESCRIBE } from '@app/protocol';

export type LocalAnswer = { result: FunctionResult } | { error: ErrorBody };

/**
 * `function_describe`, offered by the prompt when a run's functions are over the definition
 * budget and listed by name only. The executor answers it from its own catalogue, with no bus hop
 * and no provider, and only for the functions the run may call: a name outside the allow-list is
 * as unknown as one that does not exist.
 */
export function isFunctionDescribe(name: string): boolean {
  return name === FUNCTION_DESCRIBE;
}

export function answerFunctionDescribe(
  params: Record<string, unknown>,
  allowed: FunctionDefinition[],
): LocalAnswer {
  const name = typeof params.name === 'string' ? params.name.trim() : '';
  if (!name) {
    const message = `invalid parameters: name: is required (the function to describe)`;
    return {
      error: { code: 'invalid_params', message, details: [{ field: 'name', message: 'is required' }] },
    };
  }
  const definition = allowed.find((fn) => fn.name === name);
  if (!definition) return { error: { code: 'not_found', message: `function '${name}' does not exist` } };
  return { result: { markdown: describeFunction(definition) } };
}
