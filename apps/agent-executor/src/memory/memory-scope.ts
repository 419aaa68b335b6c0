import { MEMORY_FUNCTION_NAMES, type MemoryScope, type RunIdentity } from '@app/agent-core';
import { isAllowed } from '@app/protocol';
import type { AgentProfile } from '../agents/agent-profile';

export function memoryEnabled(profile: AgentProfile): boolean {
  return profile.memory?.enabled === true;
}

/** What a run of the profile may recall: always its caller's memories, narrowed by the profile's scope. */
export function memoryScopeOf(profile: AgentProfile, identity: RunIdentity): MemoryScope {
  const principal = identity.principal ?? '';
  switch (profile.memory.scope) {
    case 'session':
      return { principal, sessionId: identity.sessionId };
    case 'principal':
      return { principal };
    default:
      return { principal, agent: profile.name };
  }
}

/** A profile with memory may call the memory functions whatever else its allow-list says. */
export function withMemoryFunctions(profile: AgentProfile): string[] {
  const missing = MEMORY_FUNCTION_NAMES.filter((name) => !isAllowed(profile.allowed_tools, name));
  return [...profile.allowed_tools, ...missing];
}
