import type { FunctionDefinition } from '@app/contracts';
import { isAllowed } from '@app/protocol';
import type { RunContext } from '../run-context';

/**
 * The definitions the agent's allow-list lets a run see, in name order (by code point, the same
 * on every host whatever its locale) so that the prompt listing them is the same request after
 * request, whichever provider answered the catalogue first: a reordered function list is a new
 * prompt prefix, which a provider's prompt cache cannot serve.
 */
export async function allowedFunctions(ctx: RunContext): Promise<FunctionDefinition[]> {
  const allowList = ctx.run.definition.allowed_tools;
  if (allowList.length === 0) return [];
  return (await ctx.functions.catalogue())
    .filter((fn) => isAllowed(allowList, fn.name))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
