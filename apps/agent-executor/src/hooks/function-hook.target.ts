import { type Functions, newId } from '@app/agent-core';
import { HookCallError, type HookTarget } from './hook-target';

/**
 * A hook served by a platform function: the context is its one parameter, `context` (an object:
 * its fields vary by event, and a provider refuses parameters a function does not declare); its
 * `data` is the reply.
 */
export function functionHookTarget(functions: Functions, name: string): HookTarget {
  return {
    label: `function:${name}`,
    async call({ context, signal, timeoutMs, caller }) {
      const outcome = await functions.call({
        name,
        args: { context },
        callId: newId('call'),
        signal,
        timeoutMs,
        caller,
      });
      if (outcome.status === 'error')
        throw new HookCallError(`${outcome.error.code}: ${outcome.error.message}`);
      return outcome.result.data;
    },
  };
}
