// The run's events: what \`agent.events.<run>\` publishes and the chat API streams (SSE), each with its DTO.
import { Type } from 'class-transformer';
import { Allow, IsIn, IsInt, IsObject, IsOptional, IsString, ValidateNested } from 'class-validator';
import { type AgentEventType, AgentRunReply } from './agent';
import { Plan, PlanStep } from './agent-runs';
import { ApprovalRequiredEvent } from './approvals';
import { ErrorBody, ErrorResponse } from './errors';
import type { DtoClass } from './json-schema';

/** `run_start`: the run has begun. */
export class RunStartEvent {
  @IsString() run_id!: string;
  @IsString() session_id!: string;
  @IsString() agent!: string;
  @IsString() mode!: string;
  @IsString() protocol!: string;
}

/**
 * `run_resumed`: the run's executor stopped and another took the run over; it carries on from
 * `step`, the first model step its journal did not hold (earlier steps are not sent again).
 */
export class RunResumedEvent {
  @IsString() run_id!: string;
  @IsInt() takeovers!: number;
  @IsInt() step!: number;
}

/** `thought` and `delta`: text of a model step (a delta is a piece of it, as it streams). */
export class StepTextEvent {
  @IsInt() step!: number;
  @IsString() text!: string;
}

/** `tool_call`: the model calls a function (`index`: the call's place in its step). */
export class ToolCallEvent {
  @IsInt() step!: number;
  @IsInt() index!: number;
  @IsString() name!: string;
  @IsObject() args!: Record<string, unknown>;
}

/** `tool_result`: what the call returned, or why it failed. */
export class ToolResultEvent {
  @IsInt() step!: number;
  @IsInt() index!: number;
  @IsString() name!: string;
  @IsIn(['success', 'error']) status!: 'success' | 'error';
  @IsOptional() @Allow() result?: unknown;
  @IsOptional() @ValidateNested() @Type(() => ErrorBody) error?: ErrorBody;
  @IsInt() elapsed_ms!: number;
}

/**
 * What each event on `agent.events.<runId>` (and each SSE event of the chat API) carries as `data`.
 * `step` numbers the run's model steps. `delta` is only ever the answer's text: what a model writes
 * before its calls is that step's `thought`, so joining every `delta` gives the reply.
 */
export interface AgentEventData {
  run_start: RunStartEvent;
  run_resumed: RunResumedEvent;
  approval_required: ApprovalRequiredEvent;
  thought: StepTextEvent;
  tool_call: ToolCallEvent;
  tool_result: ToolResultEvent;
  plan: Plan;
  step: PlanStep;
  delta: StepTextEvent;
  user_message: StepTextEvent;
  run_end: AgentRunReply;
}

/**
 * The SSE events of the chat API (`POST /api/v1/chat`, `POST /api/v1/runs/:id/approve`), each
 * with the DTO of its `data`; `error` ends a stream that failed after it began.
 */
export const AGENT_SSE_EVENTS: Record<AgentEventType | 'error', DtoClass> = {
  run_start: RunStartEvent,
  run_resumed: RunResumedEvent,
  approval_required: ApprovalRequiredEvent,
  thought: StepTextEvent,
  tool_call: ToolCallEvent,
  tool_result: ToolResultEvent,
  plan: Plan,
  step: PlanStep,
  delta: StepTextEvent,
  user_message: StepTextEvent,
  run_end: AgentRunReply,
  error: ErrorResponse,
};
