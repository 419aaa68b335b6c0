import { basename } from 'node:path';
import { FUNCTION_NAME_PATTERN, type FunctionDefinition, type FunctionResult } from '@app/contracts';
import { type AgentFunction, type FunctionContext, paramsClassFromSchema } from '@app/functions';
import type { PluginDescription } from '../sandbox/sandbox-protocol';

export type SandboxRun = (
  file: string,
  params: Record<string, unknown>,
  ctx: FunctionContext,
) => Promise<unknown>;

const NO_PARAMETERS: FunctionDefinition['parameters'] = { type: 'object', properties: {}, required: [] };
const MAX_TIMEOUT_MS = 3_600_000;

/**
 * Turns what a plugin module declared (read inside a sandbox) into an AgentFunction whose
 * parameters are validated by the runner and whose execution happens in the sandbox.
 */
export function customFunction(
  declared: PluginDescription,
  file: string,
  run: SandboxRun,
): AgentFunction<Record<string, unknown>> {
  const fail = (detail: string): never => {
    throw new Error(`${basename(file)}: ${detail}`);
  };
  const { name, description, timeout_ms, idempotent } = declared;
  if (typeof name !== 'string' || !FUNCTION_NAME_PATTERN.test(name))
    fail(`name must be snake_case (${String(FUNCTION_NAME_PATTERN)})`);
  if (typeof description !== 'string' || !description.trim()) fail('description must be a non-empty string');
  const validTimeout =
    Number.isInteger(timeout_ms) && (timeout_ms as number) > 0 && (timeout_ms as number) <= MAX_TIMEOUT_MS;
  if (timeout_ms !== undefined && !validTimeout)
    fail(`timeout_ms must be an integer from 1 to ${MAX_TIMEOUT_MS}`);
  if (idempotent !== undefined && typeof idempotent !== 'boolean') fail('idempotent must be true or false');
  return {
    name: name as string,
    description: description as string,
    params: paramsOf(declared, fail),
    timeoutMs: timeout_ms as number | undefined,
    idempotent: (idempotent as boolean | undefined) ?? false,
    // whatever the plugin returns is shaped into a FunctionResult by the host
    execute: (values, ctx) => run(file, values, ctx) as Promise<FunctionResult>,
  };
}

function paramsOf(
  declared: PluginDescription,
  fail: (detail: string) => never,
): new () => Record<string, unknown> {
  try {
    return paramsClassFromSchema((declared.parameters ?? NO_PARAMETERS) as FunctionDefinition['parameters']);
  } catch (err) {
    return fail((err as Error).message);
  }
}
