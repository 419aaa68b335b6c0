import { HELD_CALL_ID_PATTERN } from '@app/contracts';

/**
 * A call held for approval, as the doors name it to their clients (a Responses
 * `mcp_approval_request`, an AG-UI interrupt, an A2A `input-required` part): its call id and the
 * hash of its arguments, so an answer names the run, the call and what was shown, and nothing else
 * needs keeping between the question and the answer.
 */
const HELD_ID = /^apr_(.+:\d{1,6}:\d{1,6})_([0-9a-f]{64})$/;

export function heldCallId(callId: string, hash: string): string {
  return `apr_${callId}_${hash}`;
}

/** The run, call and hash a held-call id names; undefined for an id this server never made. */
export function parseHeldCallId(id: string): { runId: string; callId: string; hash: string } | undefined {
  const match = HELD_ID.exec(id);
  if (!match || !HELD_CALL_ID_PATTERN.test(match[1])) return undefined;
  return { runId: match[1].split(':')[0], callId: match[1], hash: match[2] };
}
