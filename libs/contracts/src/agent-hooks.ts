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
