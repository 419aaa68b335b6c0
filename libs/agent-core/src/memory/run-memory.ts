import type { AgentDefinition } from '../agent-definition';
import type { RunInput } from '../agent-types';
import type { FunctionCaller } from '../ports';
import { MemoryFunctionCaller } from './memory-functions';
import type { MemoryScope, MemoryStore } from './memory-store';

/**
 * A run's functions: with a memory store, `memory_retrieve` and `memory_expand` are answered from
 * it within the run's scope, the input's `memoryScope` or else the caller's memories of this agent.
 */
export function functionsWithMemory(
  functions: FunctionCaller,
  memory: MemoryStore | undefined,
  definition: Pick<AgentDefinition, 'name'>,
  input: Pick<RunInput, 'memoryScope' | 'principal'>,
): FunctionCaller {
  if (!memory) return functions;
  const scope: MemoryScope = input.memoryScope ?? {
    principal: input.principal ?? '',
    agent: definition.name,
  };
  return new MemoryFunctionCaller(functions, memory, scope);
}
