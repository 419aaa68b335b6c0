/**
 * The prompts a run writes itself (the protocol's calling guide and function list come from
 * libs/protocol), as named templates with `{variable}` placeholders. An agent definition may
 * replace any of them; `language` picks the shipped set.
 */
export interface PromptTemplates {
  /** Plan mode's system prompt, after the agent's instructions. */
  planning: string;
  /** The plan's JSON shape, quoted by `planning` and `replan_request`. */
  plan_format: string;
  replan_failed_step: string;
  replan_completed_header: string;
  replan_completed_step: string;
  replan_request: string;
  /** The plan summary's request; `{observations}` are the step results, one a line. */
  summary_request: string;
  plan_awaiting_approval: string;
  /** A reply whose native tool call had unreadable arguments. */
  repair_tool_arguments: string;
  history_summary_instructions: string;
  history_summary_request: string;
  history_summary_message: string;
}

export type PromptLanguage = 'en' | 'zh';
