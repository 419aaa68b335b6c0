import { Type } from 'class-transformer';
import {
  Allow,
  IsIn,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  ValidateNested,
} from 'class-validator';

/** A held call's id: `<run_id>:<step>:<call index>`. */
export const HELD_CALL_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}:\d{1,6}:\d{1,6}$/;
/** Hex SHA-256. */
export const ARGUMENTS_HASH_PATTERN = /^[0-9a-f]{64}$/;
/** The longest reason a rejection may give. */
export const REASON_MAX = 2_000;

/**
 * A function call held before it was sent (the agent's `needs_approval`), waiting for a decision.
 * `hash` is the SHA-256 of the canonical JSON of `arguments` (keys sorted): a decision names it.
 */
export class PendingApproval {
  @IsString() call_id!: string;
  @IsString() function!: string;
  @IsObject() arguments!: Record<string, unknown>;
  @IsString() hash!: string;
  @IsString() asked_at!: string;
  /** When the agent's default decision applies; null without a timeout. */
  @IsOptional() @IsString() expires_at!: string | null;
}

/** `approval_required`: a call waits for a decision (`POST /api/v1/runs/:id/approve|reject`). */
export class ApprovalRequiredEvent extends PendingApproval {
  @IsString() run_id!: string;
}

export class ApprovalEdit {
  /** The arguments to run the call with instead; checked against the function's schema. */
  @IsObject() arguments!: Record<string, unknown>;
}

export class ApprovalResponse {
  /** What the model reads as the call's result; the call is not sent. */
  @Allow() result!: unknown;
}

/** The part of a decision both verbs share: which call, as it was shown. */
class DecisionTarget {
  /** The held call decided; may be left out when the run holds exactly one. */
  @IsOptional() @IsString() @Matches(HELD_CALL_ID_PATTERN) call_id?: string;
  /** The `hash` of the call as shown; a decision on other arguments is refused (409). */
  @IsOptional() @IsString() @Matches(ARGUMENTS_HASH_PATTERN) hash?: string;
}

/**
 * Body of `POST /api/v1/runs/:id/approve`. Without `hash` it approves a held plan, as before. With
 * it: runs the held call (with `edit.arguments` instead, if given), or with `respond` runs nothing
 * and gives the model `respond.result` as the call's result.
 */
export class ApproveRunBody extends DecisionTarget {
  @IsOptional() @ValidateNested() @Type(() => ApprovalEdit) edit?: ApprovalEdit;
  @IsOptional() @ValidateNested() @Type(() => ApprovalResponse) respond?: ApprovalResponse;
}

/**
 * Body of `POST /api/v1/runs/:id/reject`: with `hash`, the held call is not run and the model reads
 * `reason`; without it, the held plan is rejected and `reason` is recorded with its decision.
 */
export class RejectRunBody extends DecisionTarget {
  @IsOptional() @IsString() @MaxLength(REASON_MAX) reason?: string;
}

export const TOOL_DECISION_ACTIONS = ['approve', 'reject', 'respond'] as const;
export type ToolDecisionAction = (typeof TOOL_DECISION_ACTIONS)[number];

/** A decision on a held call, as the gateway hands it to an executor. */
export class ToolDecision {
  @IsIn(TOOL_DECISION_ACTIONS) action!: ToolDecisionAction;
  @IsOptional() @IsString() @Matches(HELD_CALL_ID_PATTERN) call_id?: string;
  @IsString() @Matches(ARGUMENTS_HASH_PATTERN) hash!: string;
  @IsOptional() @IsObject() arguments?: Record<string, unknown>;
  @IsOptional() @Allow() result?: unknown;
  @IsOptional() @IsString() @MaxLength(REASON_MAX) reason?: string;
  /** The deciding key's principal, set by the gateway: the run records who decided. */
  @IsOptional() @IsString() @MaxLength(128) decider?: string;
  /** The deciding API key's id, set by the gateway alongside `decider`. */
  @IsOptional() @IsString() @MaxLength(64) decider_key?: string;
}
