import { IsOptional, IsString, MaxLength } from 'class-validator';

/** The languages the run engine ships its prompt templates in. */
export const PROMPT_LANGUAGES = ['en', 'zh'] as const;
export type PromptLanguage = (typeof PROMPT_LANGUAGES)[number];

/** The run engine's named prompt templates (libs/agent-core says what each is for). */
export const PROMPT_TEMPLATE_NAMES = [
  'system',
  'react_guide_xml_toon',
  'react_guide_json_action',
  'planning',
  'plan_format',
  'replan_failed_step',
  'replan_completed_header',
  'replan_completed_step',
  'replan_request',
  'summary_request',
  'plan_awaiting_approval',
  'repair_tool_arguments',
  'repair_reply_xml_toon',
  'repair_reply_json_action',
  'repair_plan',
  'history_summary_instructions',
  'history_summary_request',
  'history_summary_message',
  'routing_instructions',
  'routing_request',
  'earlier_run_context',
] as const;
export type PromptTemplateName = (typeof PROMPT_TEMPLATE_NAMES)[number];

const MAX_TEMPLATE_CHARS = 20_000;

/** An agent's own prompt templates, by name: each replaces its language's. Unknown names are refused. */
export class PromptOverrides implements Partial<Record<PromptTemplateName, string>> {
  [name: string]: string | undefined;
}
// One optional string property a template name, from the one list of names.
for (const name of PROMPT_TEMPLATE_NAMES) {
  IsOptional()(PromptOverrides.prototype, name);
  IsString()(PromptOverrides.prototype, name);
  MaxLength(MAX_TEMPLATE_CHARS)(PromptOverrides.prototype, name);
}
