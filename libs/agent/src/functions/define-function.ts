import type { FunctionResult } from '@app/contracts/portable';
import {
  type AgentFunction,
  type FunctionContext,
  type FunctionParameters,
  paramsClassFromSchema,
} from '@app/functions/portable';

export interface FunctionSpec<P extends Record<string, unknown> = Record<string, unknown>> {
  /** snake_case, unique among the agent's functions. */
  name: string;
  description: string;
  /** A JSON-Schema object: `{type: 'object', properties, required}`. */
  parameters: FunctionParameters;
  /** This function's time limit (ms); the agent's default when absent. */
  timeoutMs?: number;
  /** Returns `{data, markdown, message}`, a string (the message) or any value (the data). */
  execute(params: P, ctx: FunctionContext): Promise<FunctionResult | unknown> | FunctionResult | unknown;
}

/**
 * A function described by a plain JSON-Schema object instead of a `@Param` class. The schema goes
 * through the same `@Param` machinery, so both kinds validate alike.
 */
export function defineFunction<P extends Record<string, unknown>>(spec: FunctionSpec<P>): AgentFunction<P> {
  const params = paramsClassFromSchema(spec.parameters) as new () => P;
  return {
    name: spec.name,
    description: spec.description,
    params,
    timeoutMs: spec.timeoutMs,
    execute: async (values, ctx) => (await spec.execute(values, ctx)) as FunctionResult,
  };
}
