import type { ToolDecision } from '@app/agent-core';
import { HOOK_DECISIONS, type HookReply } from '@app/contracts';
import { HookCallError } from './hook-target';

const MAX_REASON_CHARS = 1_000;

/**
 * A `before_tool` reply as the core's decision. No reply, or one without `decision`, allows the
 * call; a reply that says something else than the documented shape is the hook's failure.
 */
export function toolDecisionOf(reply: unknown): ToolDecision {
  if (reply === undefined || reply === null) return { action: 'allow' };
  if (typeof reply !== 'object' || Array.isArray(reply))
    throw new HookCallError('a before_tool reply must be an object');
  const { decision, reason, arguments: args } = reply as HookReply;
  if (decision === undefined || decision === 'allow') return { action: 'allow' };
  if (!HOOK_DECISIONS.includes(decision))
    throw new HookCallError(`unknown decision '${String(decision)}' (allow, deny or rewrite)`);
  if (decision === 'deny') {
    const why = typeof reason === 'string' && reason.trim() ? reason.trim() : 'refused by a before_tool hook';
    return { action: 'deny', reason: why.slice(0, MAX_REASON_CHARS) };
  }
  if (typeof args !== 'object' || args === null || Array.isArray(args))
    throw new HookCallError('a rewrite needs `arguments`, an object');
  return { action: 'rewrite', args };
}
