import {
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateIf,
  type ValidationArguments,
  ValidatorConstraint,
  type ValidatorConstraintInterface,
  Validate,
} from 'class-validator';
import { FUNCTION_NAME_PATTERN } from './functions';

export const HOOK_EVENTS = [
  'on_turn_start',
  'on_turn_end',
  'on_plan_step_complete',
  'before_llm',
  'after_llm',
  'before_tool',
  'after_tool',
] as const;
export type HookEvent = (typeof HOOK_EVENTS)[number];

export const HOOK_POLICIES = ['fail_open', 'fail_closed'] as const;
export type HookPolicy = (typeof HOOK_POLICIES)[number];

export const HOOK_TIMEOUT_DEFAULT_MS = 2_000;
export const HOOK_TIMEOUT_MAX_MS = 30_000;

/** What a `before_tool` hook may answer; any other event's reply is ignored. */
export const HOOK_DECISIONS = ['allow', 'deny', 'rewrite'] as const;

@ValidatorConstraint({ name: 'oneHookTarget' })
class OneTarget implements ValidatorConstraintInterface {
  validate(_value: unknown, args: ValidationArguments): boolean {
    const hook = args.object as AgentHook;
    return (hook.function === undefined) !== (hook.url === undefined);
  }

  defaultMessage(): string {
    return 'a hook names exactly one target: function or url';
  }
}

/**
 * A hook of an agent profile: at `event`, a platform function (called over the bus like a tool
 * call, with the run's caller and scopes) or a webhook (JSON POSTed through the same network
 * guard as http_request) is given the run's context.
 */
export class AgentHook {
  // the rule spans two optional fields, so it sits on the one field always validated
  @IsIn(HOOK_EVENTS) @Validate(OneTarget) event!: HookEvent;
  @ValidateIf((hook: AgentHook) => hook.function !== undefined)
  @IsString()
  @Matches(FUNCTION_NAME_PATTERN)
  function?: string;
  @ValidateIf((hook: AgentHook) => hook.url !== undefined)
  @IsString()
  @MaxLength(2_048)
  @Matches(/^https?:\/\/\S+$/)
  url?: string;
  @IsOptional() @IsInt() @Min(1) @Max(HOOK_TIMEOUT_MAX_MS) timeout_ms?: number;
  @IsOptional() @IsIn(HOOK_POLICIES) policy?: HookPolicy;
}

/** A hook from the configuration file may reach a webhook on a loopback or private address. */
export class AgentHookSpec extends AgentHook {
  @IsOptional() @IsBoolean() allow_private_network?: boolean;
}

/** A hook as a run uses it: the defaults filled in. */
export interface ResolvedHook extends AgentHookSpec {
  timeout_ms: number;
  policy: HookPolicy;
}

/**
 * What a hook is given (a function's `context` parameter, a webhook's JSON body). Fields beyond the run's
 * own appear for the events they concern. Never a key, a model endpoint or the caller's scopes.
 */
export interface HookContext {
  event: HookEvent;
  run_id: string;
  session_id: string;
  agent: string;
  /** The run's model step (0 before its first model call); plan steps count as steps too. */
  turn_index: number;
  /** Plan mode: the plan step being carried out or just completed. */
  plan_step_index?: number;
  /** before_tool, after_tool: the call; `arguments` as the model wrote them (after_tool: as executed). */
  tool_call?: { name: string; arguments: Record<string, unknown> };
  /** after_tool: how it ended and what the model reads of it. */
  tool_result?: { status: 'success' | 'error'; observation: string; error?: string; elapsed_ms: number };
  /** before_llm: the model and how many messages it is sent. */
  model?: { name: string; messages: number };
  /** after_llm: the call's tokens and time; on_turn_end: the run's tokens. */
  usage?: { prompt_tokens: number; completion_tokens: number; elapsed_ms?: number };
  /** on_plan_step_complete: the step as it ended. */
  plan_step?: { index: number; tool: string; status: string; error?: string };
  /** on_turn_end: how the turn ended. */
  finish_reason?: string;
}

/**
 * A `before_tool` hook's reply (a function's `data`, a webhook's JSON body). An empty reply, or
 * one without `decision`, allows the call.
 */
export interface HookReply {
  decision?: (typeof HOOK_DECISIONS)[number];
  /** deny: what the model reads as the call's error. */
  reason?: string;
  /** rewrite: the call's new arguments, checked against the function's schema again. */
  arguments?: Record<string, unknown>;
}
