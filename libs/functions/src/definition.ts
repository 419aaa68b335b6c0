import { FUNCTION_NAME_PATTERN, type FunctionDefinition } from '@app/contracts/portable';
import type { AgentFunction } from './agent-function';
import { paramsSchema } from './params/params-schema';

/** The one definition of a function: the prompt, `GET /functions` and validation all use it. */
export function describeFunction(
  fn: AgentFunction,
  provider: string,
  defaultTimeoutMs: number,
): FunctionDefinition {
  if (!FUNCTION_NAME_PATTERN.test(fn.name)) {
    throw new Error(`function name '${fn.name}' must be snake_case: ${String(FUNCTION_NAME_PATTERN)}`);
  }
  if (typeof fn.description !== 'string' || fn.description.trim() === '') {
    throw new Error(`function '${fn.name}' needs a description`);
  }
  return {
    name: fn.name,
    description: fn.description,
    parameters: paramsSchema(fn.params),
    timeout_ms: fn.timeoutMs ?? defaultTimeoutMs,
    provider,
    idempotent: fn.idempotent ?? false,
  };
}
