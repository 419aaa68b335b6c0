import type { AgentEventType } from '@app/contracts';

/**
 * The events a stream yields: keyed by the contracts' event type (`AgentEventType`, the one list in
 * `@app/contracts`), so an event the contracts add fails this file's type check until it is here.
 * A value import would pull the contracts' runtime (class-validator) into the packed client, which
 * carries their types only. Events the gateway may add later are skipped.
 */
export const EVENT_TYPES: Readonly<Record<AgentEventType | 'error', true>> = {
  run_start: true,
  run_resumed: true,
  approval_required: true,
  thought: true,
  tool_call: true,
  tool_result: true,
  plan: true,
  step: true,
  delta: true,
  user_message: true,
  run_end: true,
  error: true,
};
