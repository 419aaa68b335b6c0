import { describeFunctions } from './function-catalog';
import type { PromptFunction, PromptProtocol, ToolProtocol } from './types';
import { encodeCalls } from './xml-toon.codec';

export interface SystemPromptOptions {
  functions: PromptFunction[];
  protocol: PromptProtocol;
  /** The agent's own instructions; they open the prompt. */
  instructions?: string;
}

/**
 * Builds the system prompt: the instructions, then (for a text protocol with functions) how to
 * call, with one worked example, and the function list. With `native` only the instructions
 * are returned: the functions travel in the provider's `tools` array. Every token is paid for
 * on every step, so the wording is deliberately terse.
 */
export function buildSystemPrompt({ functions, protocol, instructions }: SystemPromptOptions): string {
  const opening = instructions?.trim() ?? '';
  if (protocol === 'native' || functions.length === 0) return opening;
  return [opening, protocolGuide(protocol), describeFunctions(functions)].filter(Boolean).join('\n\n');
}

function protocolGuide(protocol: ToolProtocol): string {
  if (protocol !== 'xml-toon') return JSON_ACTION_GUIDE;
  xmlToonGuide ??= xmlToonGuideText();
  return xmlToonGuide;
}

// Built on first use, not at import: encoding the example loads the tokenizer (~70 MB).
let xmlToonGuide: string | undefined;

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

// Paid on every request: each clause earns its tokens. `<every-row>` and `<note>` are the two
// result elements a model cannot guess (result-render.ts).
const xmlToonGuideText = () => `## Calling functions
Reply with <call> elements, e.g. (not a real function):
${workedExample()}
One <p>name: value</p> per parameter; lists and objects in <data type="toon"> (key[count]{fields}: then one row per line) or <data type="json">. Calls in one reply run concurrently. Results come back as <result>; <every-row>field: value</every-row> holds fields equal in every row of its table. To answer the user, reply without <call>.`;

const JSON_ACTION_GUIDE = `## Calling functions
Reply with exactly one JSON object and nothing else:
- to call a function: {"type":"action","tool":"function_name","args":{"param":"value"}}
- to answer the user: {"type":"final","answer":"..."}
After an action you receive its result; then act again or answer.`;
