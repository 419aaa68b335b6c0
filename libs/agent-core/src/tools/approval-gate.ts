import type { ErrorBody, FunctionResult } from '@app/contracts';
import { isAllowed } from '@app/protocol';
import type { AgentDefinition } from '../agent-definition';
import type { RunState } from '../run-state';

/** A call held before it was sent, waiting for a person's decision. */
export interface HeldCall {
  /** `<run_id>:<step>:<index>`: the same on whichever executor asks, like the call's idempotency key. */
  callId: string;
  step: number;
  index: number;
  name: string;
  args: Record<string, unknown>;
  /** SHA-256 of the canonical arguments: a decision names it, so it is checked against what was shown. */
  hash: string;
}

/**
 * What a person decided about a held call. With `hash`, it applies only to a call with exactly the
 * arguments that were shown (a step asked again, after a lost journal, may call something else).
 */
export type ApprovalDecision = { hash?: string } & (
  | { action: 'approve'; args?: Record<string, unknown> }
  | { action: 'reject'; reason?: string }
  | { action: 'respond'; result: unknown }
);

/** The decisions taken on a run's held calls, by call id. */
export type ApprovalDecisions = ReadonlyMap<string, ApprovalDecision>;

/** What a run held for approval answers: the calls it waits on. */
export function awaitingApprovalReply(held: HeldCall[]): string {
  return `Waiting for approval of ${held.map((call) => `${call.name} (${call.callId})`).join(', ')}.`;
}

export function needsApproval(definition: AgentDefinition, name: string): boolean {
  const rule = definition.needs_approval;
  return rule !== undefined && isAllowed(rule, name);
}

export function heldCallId(runId: string, step: number, index: number): string {
  return `${runId}:${step}:${index}`;
}

/**
 * Hex SHA-256 of the arguments as canonical JSON (object keys sorted at every depth). node:crypto
 * is taken at the first hash, not imported: only a call held for approval needs it, and an idle
 * embedded agent would carry it for nothing (docs/benchmarks.md).
 */
export function argumentsHash(args: unknown): string {
  const { createHash } = process.getBuiltinModule('node:crypto');
  return createHash('sha256').update(canonicalJson(args)).digest('hex');
}

export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** The decision on call `index` of the run's current step, if one was taken on these very arguments. */
export function decisionFor(
  { run, approvals }: { run: RunState; approvals?: ApprovalDecisions },
  index: number,
  args: Record<string, unknown>,
): ApprovalDecision | undefined {
  const decision = approvals?.get(heldCallId(run.runId, run.step, index));
  return decision && (!decision.hash || decision.hash === argumentsHash(args)) ? decision : undefined;
}

/** A rejected call's error: the model reads the reviewer's reason. */
export function rejection(reason?: string): ErrorBody {
  return {
    code: 'forbidden',
    message: reason
      ? `the call was rejected by a reviewer: ${reason}`
      : 'the call was rejected by a reviewer',
  };
}

/** The reviewer's stand-in result: structured data stays data, anything else is a message. */
export function respondedResult(result: unknown): FunctionResult {
  if (typeof result === 'string') return { message: result };
  return { data: result };
}
