import type { AgentMode, AgentProtocol, StepFailurePolicy } from '@app/contracts';
import { PromptSet } from './prompts/prompt-set';
import { ENGLISH_TEMPLATES } from './prompts/templates.en';
import type { PromptLanguage, PromptTemplates } from './prompts/templates';

/**
 * What an agent is: its instructions, how it talks to the model, what it may call and its limits.
 * Field names follow the agent profiles of the HTTP API, so a stored profile is a definition.
 */
export interface AgentDefinition {
  name: string;
  /** The agent's instructions; they open every system prompt. */
  system_prompt: string;
  /**
   * The caller's instructions for one turn (its system messages, a follow-up's context): a system
   * message of their own after the agent's prompt, so that prompt and its function list stay the
   * same request after request (the prefix a provider's prompt cache can serve).
   */
  turn_instructions?: string;
  protocol: AgentProtocol;
  mode: AgentMode;
  /** Function names and `prefix*` patterns (`*`: every function). */
  allowed_tools: string[];
  /** Model calls a run may make. */
  max_steps: number;
  /** Function calls a run may make. */
  max_tool_calls: number;
  /** Milliseconds one function call may take. */
  single_call_timeout: number;
  /** Tokens (prompt + completion) a run may spend; 0: no budget. */
  total_token_budget: number;
  /**
   * USD a run may spend at its model's price (given by the host); no model step starts once the
   * run's cost has reached it. No limit when absent, or when the model has no price.
   */
  max_cost_usd?: number;
  /** Characters of one result the model reads. */
  observation_max_len: number;
  /** Tokens of the model's context; a session's history may take half. */
  context_window: number;
  /** Milliseconds a run may take; the runtime's limit when absent. */
  run_timeout?: number;
  /** Plan mode: hold the plan in `awaiting_approval` before any step runs. */
  plan_approval: boolean;
  /** Plan mode: what a failed step means for the rest of the plan. */
  step_failure: StepFailurePolicy;
  /**
   * ReAct: functions (names and `prefix*` patterns, `*` for all) whose calls wait in
   * `awaiting_approval` for a person's decision before they are sent.
   */
  needs_approval?: string[];
  model?: string;
  temperature?: number;
  max_tokens?: number;
  /** Tokens the function definitions may take in a text-protocol prompt before they are listed by name. */
  function_definition_budget?: number;
  /** Replaces named prompt templates for this agent. */
  prompts?: Partial<PromptTemplates>;
  /** The language of the shipped templates; English when absent. */
  language?: PromptLanguage;
}

export const DEFAULT_SYSTEM_PROMPT = ENGLISH_TEMPLATES.system;

export const DEFINITION_DEFAULTS = {
  system_prompt: DEFAULT_SYSTEM_PROMPT,
  protocol: 'xml-toon',
  mode: 'react',
  allowed_tools: [],
  max_steps: 10,
  max_tool_calls: 20,
  single_call_timeout: 30_000,
  total_token_budget: 0,
  observation_max_len: 4_000,
  context_window: 16_000,
  plan_approval: false,
  step_failure: 'abort',
} as const satisfies Omit<AgentDefinition, 'name'>;

/**
 * A definition with every default filled in; fields given as `undefined` keep their default.
 * Without instructions the agent gets its `system` template, in its language.
 */
export function defineAgent(spec: Partial<AgentDefinition> & { name: string }): AgentDefinition {
  const given = Object.fromEntries(Object.entries(spec).filter(([, value]) => value !== undefined));
  const system_prompt = new PromptSet(spec).render('system');
  return { ...DEFINITION_DEFAULTS, system_prompt, allowed_tools: [], ...given } as unknown as AgentDefinition;
}
