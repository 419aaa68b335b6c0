import { describeFunctions } from './function-catalog';
import type { PromptFunction, PromptProtocol, ToolProtocol } from './types';
import { encodeCalls } from './xml-toon.codec';
import { JSON_ACTION_GUIDE, XML_TOON_GUIDE } from './guides';

export interface SystemPromptOptions {
  functions: PromptFunction[];
  protocol: PromptProtocol;
  /** The agent's own instructions; they open the prompt. */
  instructions?: string;
  /**
   * Most tokens the function definitions may take; over it they are listed one line each and
   * `function_describe` gives a full signature on demand (function-catalog.ts). No limit when omitted.
   */
  definitionBudget?: number;
  /** Model whose tokenizer counts the budget. */
  model?: string;
  /** How to call functions, replacing the protocol's own guide (a translated or reworded one). */
  guide?: string;
}

/**
 * Builds the system prompt: the instructions, then (for a text protocol with functions) how to
 * call, with one worked example, and the function list. With `native` only the instructions
 * are returned: the functions travel in the provider's `tools` array. Every token is paid for
 * on every step, so the wording is deliberately terse.
 */
export function buildSystemPrompt(options: SystemPromptOptions): string {
  const { functions, protocol, instructions, definitionBudget, model, guide } = options;
  const opening = instructions?.trim() ?? '';
  if (protocol === 'native' || functions.length === 0) return opening;
  const inputs = [protocol, opening, definitionBudget, model, guide, ...functions];
  const built = recentPrompts.find((recent) => sameItems(recent.inputs, inputs));
  if (built) return built.prompt;
  const catalog = describeFunctions(functions, { budget: definitionBudget, model });
  const prompt = [opening, guide ?? protocolGuide(protocol), catalog].filter(Boolean).join('\n\n');
  if (recentPrompts.unshift({ inputs, prompt }) > RECENT_KEPT) recentPrompts.pop();
  return prompt;
}

/**
 * The prompts built last and what they were built from, the functions by identity: a catalogue
 * hands out the same definition objects until it is gathered again (definitions are never changed
 * in place), and a deployment's runs build the same few prompts turn after turn: listing the
 * functions anew each time was ~3% of the bytes an executor allocates a turn. Most recent first.
 */
const recentPrompts: { inputs: readonly unknown[]; prompt: string }[] = [];
const RECENT_KEPT = 16;

function sameItems(a: readonly unknown[], b: readonly unknown[]): boolean {
  return a.length === b.length && a.every((item, i) => item === b[i]);
}

function protocolGuide(protocol: ToolProtocol): string {
  if (protocol !== 'xml-toon') return JSON_ACTION_GUIDE;
  xmlToonGuide ??= XML_TOON_GUIDE.replace('{example}', () => xmlToonExample());
  return xmlToonGuide;
}

let xmlToonGuide: string | undefined;
let example: string | undefined;

/** The worked example of the xml-toon guide; built on first use, not at import: encoding it loads the tokenizer (~70 MB). */
export function xmlToonExample(): string {
  example ??= workedExample();
  return example;
}

const workedExample = () =>
  encodeCalls([
    {
      name: 'add_items',
      params: {
        list: 'groceries',
        items: [
          { name: 'Apple', qty: 3 },
          { name: 'Banana', qty: 6 },
        ],
      },
    },
  ]);
