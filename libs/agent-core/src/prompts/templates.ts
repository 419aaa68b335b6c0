/**
 * The prompts a run writes, as named templates with `{variable}` placeholders (the function list
 * is rendered by libs/protocol, and the English calling guides are the protocol's own text). An agent definition may
 * replace any of them; `language` picks the shipped set.
 */
export interface PromptTemplates {
  /** The agent's instructions when its definition gives none. */
  system: string;
  /** ReAct with xml-toon: how to call functions, after the agent's instructions; `{example}` is a worked call. */
  react_guide_xml_toon: string;
  /** ReAct with json-action: how to call functions, after the agent's instructions. */
  react_guide_json_action: string;
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
  /** An xml-toon reply that could not be read; `{error}` says what. */
  repair_reply_xml_toon: string;
  /** A json-action reply that could not be read; `{error}` says what. */
  repair_reply_json_action: string;
  /** A plan that could not be read; `{error}` is the plan parser's. */
  repair_plan: string;
  history_summary_instructions: string;
  history_summary_request: string;
  history_summary_message: string;
  /** Whether a message belongs to a session's running run: the classifier's instructions. */
  routing_instructions: string;
  /** The classifier's question; `{goal}` is the running run's request, `{message}` the new one. */
  routing_request: string;
  /** A run started from an ended one is told what that run did. */
  earlier_run_context: string;
}

export type { PromptLanguage } from '@app/contracts';
