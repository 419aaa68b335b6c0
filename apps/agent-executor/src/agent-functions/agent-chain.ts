import { AGENT_FUNCTION_PREFIX, AppError, type CallerDto, FUNCTION_NAME_PATTERN } from '@app/contracts';

/** The function serving agent `name`; undefined for a name a function name cannot spell (`A-b.c`). */
export function agentFunctionName(name: string): string | undefined {
  const fn = `${AGENT_FUNCTION_PREFIX}${name}`;
  return FUNCTION_NAME_PATTERN.test(fn) ? fn : undefined;
}

/**
 * The agents above a call of `target`, outermost first: the caller's chain, or the calling agent
 * alone for a caller that sent none. Refuses a cycle (`target` is already in it) and a chain
 * deeper than `maxDepth` agent calls.
 */
export function chainFor(caller: CallerDto, target: string, maxDepth: number): string[] {
  const chain = caller.chain ?? (caller.kind === 'agent' && caller.agent ? [caller.agent] : []);
  if (chain.includes(target)) {
    throw new AppError(
      'forbidden',
      `agent '${target}' is already in the chain of calls (${[...chain, target].join(' → ')}): an agent cannot call itself through others`,
      { chain },
    );
  }
  if (chain.length > maxDepth) {
    throw new AppError(
      'forbidden',
      `calling agent '${target}' would nest agents ${chain.length} deep; the limit is ${maxDepth} (AGENT_CALL_MAX_DEPTH)`,
      { chain, max_depth: maxDepth },
    );
  }
  return chain;
}
