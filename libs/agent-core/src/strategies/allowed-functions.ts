import type { FunctionDefinition } from '@app/contracts';
import { isAllowed } from '@app/protocol';
import type { RunContext } from '../run-context';

/** The definitions the agent's allow-list lets a run see, in name order so prompts are stable. */
export async function allowedFunctions(ctx: RunContext): Promise<FunctionDefinition[]> {
  const allowList = ctx.run.definition.allowed_tools;
  if (allowList.length === 0) return [];
  return (await ctx.functions.catalogue()).filter((fn) => isAllowed(allowList, fn.name));
}
