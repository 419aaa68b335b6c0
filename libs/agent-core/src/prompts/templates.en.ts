import {
  JSON_ACTION_GUIDE,
  JSON_ACTION_REPAIR,
  XML_TOON_GUIDE,
  XML_TOON_REPAIR,
} from '@app/protocol/portable';
import type { PromptTemplates } from './templates';

export const ENGLISH_TEMPLATES: PromptTemplates = {
  system:
    'You are a helpful assistant. Use the functions when they help to answer; answer directly when they do not.',
  react_guide_xml_toon: XML_TOON_GUIDE,
  react_guide_json_action: JSON_ACTION_GUIDE,
  planning: `## Planning
Write a plan for the user's request. Reply with one JSON object and nothing else:
{plan_format}
Each step calls one function with literal parameter values; the steps run in order; at most {max_steps} steps. If no function is needed, reply {"steps":[]}.`,
  plan_format:
    '{"steps":[{"description":"what the step does","tool":"function_name","params":{"name":"value"}}]}',
  replan_failed_step: 'Step {step} ({tool}) failed: {error}.',
  replan_completed_header: 'Completed so far:',
  replan_completed_step: '- step {step} ({tool}) succeeded: {result}',
  replan_request: 'Write the steps that remain to be done, in the same JSON format: {plan_format}',
  summary_request: `The plan has been carried out. The results of its steps:
{observations}
Now answer the user's request from these results. Do not call functions.`,
  plan_awaiting_approval: 'The plan is waiting for approval:',
  repair_tool_arguments:
    'Your reply could not be read: {error}. Call the function again with a JSON object as its arguments.',
  repair_reply_xml_toon: XML_TOON_REPAIR,
  repair_reply_json_action: JSON_ACTION_REPAIR,
  repair_plan:
    'Your plan could not be read: {error}. Reply with one JSON object: {"steps":[{"description":"..","tool":"function_name","params":{..}}]}.',
  history_summary_instructions:
    'You write summaries of conversations. Keep facts, names, numbers, decisions and open questions; drop small talk. At most 200 words.',
  history_summary_request: 'Summarise this conversation so an assistant can continue it.',
  history_summary_message: 'Summary of the earlier conversation:\n{summary}',
  routing_instructions:
    'An assistant is working on a task for the user. Decide whether the user\'s new message is about that task (a correction, an addition, a question on it) or a separate request. Reply with one JSON object and nothing else: {"join":true|false,"reason":"a few words"}',
  routing_request: 'The task being worked on:\n{goal}\n\nThe new message:\n{message}',
  earlier_run_context:
    'Earlier in this conversation you worked on this request:\n{goal}\nYour answer was:\n{answer}\nThe user now follows up on it.',
};
