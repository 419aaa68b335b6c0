import { findJsonObjects } from './json-extract';
import { cleanProse } from './prose';
import { invalidReply } from './invalid-reply';
import type { ParsedReply } from './types';
import { JSON_ACTION_REPAIR } from './guides';

const NO_TYPE = 'its JSON object has no "type"';
const NO_OBJECT = 'it contains no JSON object';

/**
 * Parses a json-action reply: one `{"type":"action","tool":..,"args":{..}}` or
 * `{"type":"final","answer":..}`. A code fence or prose around the object is tolerated (the
 * prose becomes the thought); no object, several objects or a wrong shape is `invalid`.
 */
export function parseJsonActionReply(text: string): ParsedReply {
  if (!text.trim()) return invalid('the reply is empty');
  const objects = findJsonObjects(text);
  const messages = objects.filter((object) => isProtocolMessage(object.value));
  if (messages.length > 1) return invalid(`it contains ${messages.length} JSON objects; send one per reply`);
  const [message] = messages;
  if (!message) return invalid(objects.length ? NO_TYPE : NO_OBJECT);
  const thought = cleanProse(text.slice(0, message.start) + text.slice(message.end));
  return readMessage(message.value, thought);
}

function readMessage(message: Record<string, unknown>, thought: string): ParsedReply {
  const declared = message.type ?? (message.tool !== undefined ? 'action' : 'final');
  const type = typeof declared === 'string' ? declared.toLowerCase() : declared;
  if (type === 'final') return readFinal(message.answer);
  if (type !== 'action') return invalid(`"type" is ${JSON.stringify(declared)}, not "action" or "final"`);
  const tool = typeof message.tool === 'string' ? message.tool.trim() : '';
  if (!tool) return invalid('the action has no "tool" naming the function to call');
  const args = readArgs(message.args);
  if (!args) return invalid(`"args" of ${tool} must be a JSON object`);
  const calls = [{ name: tool, params: args }];
  return thought ? { kind: 'calls', calls, thought } : { kind: 'calls', calls };
}

function readFinal(answer: unknown): ParsedReply {
  if (answer === undefined) return invalid('the final message has no "answer"');
  return { kind: 'final', answer: typeof answer === 'string' ? answer : JSON.stringify(answer) };
}

/** Missing args mean none; args sent as a JSON string (a common slip) are unwrapped. */
function readArgs(args: unknown): Record<string, unknown> | undefined {
  if (args === undefined || args === null) return {};
  if (typeof args === 'string') return findJsonObjects(args)[0]?.value;
  return typeof args === 'object' && !Array.isArray(args) ? (args as Record<string, unknown>) : undefined;
}

function isProtocolMessage(value: Record<string, unknown>): boolean {
  return 'type' in value || 'tool' in value || 'answer' in value;
}

function invalid(problem: string): ParsedReply {
  return invalidReply(JSON_ACTION_REPAIR, problem);
}
