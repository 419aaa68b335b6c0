import type { AgentDefinition } from '../agent-definition';
import type { RunInput } from '../agent-types';
import type { Functions } from '../ports';
import { MemoryFunctions } from './memory-functions';
import type { MemoryScope, MemoryStore } from './memory-store';

/**
 * A run's functions: with a memory store, `memory_retrieve` and `memory_expand` are answered from
 * it within the run's scope, the input's `memoryScope` or else the caller's memories of this agent.
 */
export function functionsWithMemory(
  functions: Functions,
  memory: MemoryStore | undefined,
  definition: Pick<AgentDefinition, 'name'>,
  input: Pick<RunInput, 'memoryScope' | 'principal'>,
): Functions {
  if (!memory) return functions;
  const scope: MemoryScope = input.memoryScope ?? {
    principal: input.principal ?? '',
    agent: definition.name,
  };
  return new MemoryFunctions(functions, memory, scope);
}
