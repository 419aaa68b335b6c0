import { IsBoolean, IsOptional, IsString, Matches, MaxLength, MinLength } from 'class-validator';

export const ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
export const NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;
export const MAX_MESSAGE_CHARS = 32_000;

/** Body of `agent.run`: one conversation turn. The gateway may pre-assign the run id (for SSE). */
export class AgentRunRequest {
  @IsString() @MinLength(1) @MaxLength(MAX_MESSAGE_CHARS) message!: string;
  @IsOptional() @IsString() @Matches(ID_PATTERN) session_id?: string;
  @IsOptional() @IsString() @Matches(ID_PATTERN) run_id?: string;
  @IsOptional() @IsString() @Matches(NAME_PATTERN) agent?: string;
  @IsOptional() @IsString() @MaxLength(128) principal?: string;
  /** Publish step events on `agent.events.<run_id>` while running. */
  @IsOptional() @IsBoolean() stream?: boolean;
}

export const FINISH_REASONS = [
  'final',
  'max_steps',
  'max_tool_calls',
  'budget',
  'timeout',
  'parse_error',
  'cancelled',
  'error',
  'awaiting_approval',
  'rejected',
] as const;
export type FinishReason = (typeof FINISH_REASONS)[number];

export interface FunctionCallSummary {
  name: string;
  status: 'success' | 'error';
  result: unknown;
}

export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
}

/** The chat response (DESIGN §8), also the reply of `agent.run`. */
export interface AgentRunReply {
  session_id: string;
  run_id: string;
  reply: string;
  function_calls: FunctionCallSummary[];
  finish_reason: FinishReason;
  usage: Usage;
}

export type AgentEventType =
  'run_start' | 'thought' | 'tool_call' | 'tool_result' | 'plan' | 'step' | 'delta' | 'run_end';

export interface AgentEvent {
  type: AgentEventType;
  run_id: string;
  seq: number;
  data: unknown;
}
