import { formatFunctionDefinitions } from 'gpt-tokenizer/functionCalling';
import {
  buildSystemPrompt,
  countTokens,
  encodeCalls,
  encodeError,
  encodeResult,
  type DataFormat,
  type PromptFunction,
} from '../../libs/protocol/src/index';
import { CONFIG_KEYS } from '../../libs/config/src/config-keys';
import { FUNCTIONS } from './functions';
import type { Scenario, Step, StepResult } from './scenarios';

/**
 * How a conversation is put on the wire. `functionCalling` counts the `tools` array as sent, the
 * JSON the OpenAI API receives; `functionCallingRendered` as gpt-tokenizer estimates OpenAI's
 * internal rendering of it (the provider does not publish the exact text).
 */
export type Variant = 'ours' | 'compactJson' | 'functionCalling' | 'functionCallingRendered';

/** `executor.function_definition_budget`'s default, as the executor applies it. */
export const DEFINITION_BUDGET = Number(
  CONFIG_KEYS.find((key) => key.path === 'executor.function_definition_budget')?.default,
);

/** What the model answers once the work is done, the same on both sides (billed.ts scripts it). */
export const ANSWER = 'Done. Everything you asked for is above.';

export const INSTRUCTIONS = 'You are the operations and sales assistant of ACME GmbH. Be concise and exact.';

// Chat-format overheads, as in gpt-tokenizer's estimator of OpenAI requests (functionCalling.ts).
const MESSAGE_OVERHEAD = 3;
export const REPLY_PRIMING = 3;
const TOOL_CALL_OVERHEAD = 3;
const TOOL_DEFINITIONS_OVERHEAD = 9;
const SYSTEM_WITH_TOOLS_DEDUCTION = 4;

export interface Message {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string;
  toolCalls?: { name: string; arguments: string }[];
}

export interface Transcript {
  /** Tokens sent with every request before the conversation (tool definitions, system, user). */
  opening: number;
  /** Of the opening, the function definitions and how to call them (ours: the guide; JSON FC: none). */
  definitions: number;
  guide: number;
  /** The messages each step appends: the model's calls, then their results. */
  turns: Message[][];
}

/**
 * Prompt tokens billed over a whole scenario: one request before each step and one for the
 * final answer, each re-sending the conversation so far.
 */
export function billedPromptTokens(scenario: Scenario, variant: Variant): number {
  const { opening, turns } = transcript(scenario, variant);
  let history = opening;
  let billed = history + REPLY_PRIMING;
  for (const turn of turns) {
    history += sum(turn.map(messageTokens));
    billed += history + REPLY_PRIMING;
  }
  return billed;
}

/** Prompt tokens of the last request: the whole context the model reads before its answer. */
export function finalPromptTokens(scenario: Scenario, variant: Variant): number {
  const { opening, turns } = transcript(scenario, variant);
  return opening + sum(turns.flat().map(messageTokens)) + REPLY_PRIMING;
}

export function transcript(scenario: Scenario, variant: Variant): Transcript {
  return variant === 'ours' || variant === 'compactJson'
    ? xmlToonTranscript(scenario, variant === 'ours' ? 'auto' : 'json')
    : functionCallingTranscript(scenario, variant === 'functionCalling');
}

function xmlToonTranscript(scenario: Scenario, format: DataFormat | 'auto'): Transcript {
  const system = ourSystemPrompt();
  const withoutGuide = ourSystemPrompt('');
  const opening =
    messageTokens({ role: 'system', content: system }) +
    messageTokens({ role: 'user', content: scenario.user });
  const turns = scenario.steps.map((step): Message[] => [
    { role: 'assistant', content: encodeCalls(step.calls) },
    {
      role: 'user',
      content: step.results.map((result, index) => encodeStepResult(step, index, result, format)).join('\n'),
    },
  ]);
  const definitions = countTokens(withoutGuide) - countTokens(INSTRUCTIONS);
  return { opening, definitions, guide: countTokens(system) - countTokens(withoutGuide), turns };
}

/** The system prompt of ours; `guide: ''` leaves the protocol guide out (to count it). */
export function ourSystemPrompt(guide?: string): string {
  return buildSystemPrompt({
    functions: FUNCTIONS,
    protocol: 'xml-toon',
    instructions: INSTRUCTIONS,
    definitionBudget: DEFINITION_BUDGET,
    ...(guide === undefined ? {} : { guide }),
  });
}

function encodeStepResult(
  step: Step,
  index: number,
  result: StepResult,
  format: DataFormat | 'auto',
): string {
  const name = step.calls[index].name;
  return result.ok ? encodeResult(name, result.content, { format }) : encodeError(name, result.error);
}

/**
 * OpenAI-style: `tools`, an assistant message with `tool_calls`, one `tool` message per result.
 * The system message is padded and the tools discounted as the estimator does.
 */
function functionCallingTranscript(scenario: Scenario, toolsAsJson: boolean): Transcript {
  const definitions = toolDefinitionTokens(toolsAsJson) - SYSTEM_WITH_TOOLS_DEDUCTION;
  const opening =
    definitions +
    messageTokens({ role: 'system', content: `${INSTRUCTIONS}\n` }) +
    messageTokens({ role: 'user', content: scenario.user });
  const turns = scenario.steps.map((step): Message[] => [
    {
      role: 'assistant',
      content: '',
      toolCalls: step.calls.map((c) => ({ name: c.name, arguments: JSON.stringify(c.params) })),
    },
    ...step.results.map((result): Message => ({
      role: 'tool',
      content: JSON.stringify(result.ok ? result.content : { error: result.error }),
    })),
  ]);
  return { opening, definitions, guide: 0, turns };
}

/** The `tools` array as sent (its JSON), or as the provider's rendering of it is estimated. */
export function toolDefinitionTokens(asJson: boolean, functions: PromptFunction[] = FUNCTIONS): number {
  if (!asJson) return countTokens(formatFunctionDefinitions(functions as never)) + TOOL_DEFINITIONS_OVERHEAD;
  const tools = functions.map((fn) => ({ type: 'function', function: fn }));
  return countTokens(JSON.stringify(tools));
}

export function messageTokens(message: Message): number {
  const calls = (message.toolCalls ?? []).map(
    (c) => countTokens(c.name) + countTokens(c.arguments) + TOOL_CALL_OVERHEAD,
  );
  return MESSAGE_OVERHEAD + countTokens(message.role) + countTokens(message.content) + sum(calls);
}

function sum(values: number[]): number {
  return values.reduce((total, value) => total + value, 0);
}
