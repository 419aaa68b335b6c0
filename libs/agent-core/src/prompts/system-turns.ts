import type { AgentDefinition } from '../agent-definition';
import type { ChatMessage } from '../model/model-client';

/**
 * The system turns that open a request: the stable prompt (the agent's instructions, how to call,
 * the functions: the same for every request of the agent, so a provider's prompt cache serves it
 * across runs and sessions), then the caller's instructions for this turn, which may change from
 * turn to turn and so come after it.
 */
export function systemTurns(
  stable: string,
  definition: Pick<AgentDefinition, 'turn_instructions'>,
): ChatMessage[] {
  const turn = definition.turn_instructions?.trim();
  const turns: ChatMessage[] = stable ? [{ role: 'system', content: stable }] : [];
  return turn ? [...turns, { role: 'system', content: turn }] : turns;
}
