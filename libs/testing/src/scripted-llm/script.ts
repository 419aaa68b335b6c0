/**
 * What the scripted model says. A script is plain data (it is loaded from JSON files and over HTTP),
 * so a regular expression is written as a string in slashes: "/weather in (\\w+)/i".
 */
export interface ScriptedToolCall {
  name: string;
  arguments: Record<string, unknown>;
}

export type ScriptedFinishReason = 'stop' | 'tool_calls' | 'length';

export interface ReplySpec {
  text?: string;
  toolCalls?: ScriptedToolCall[];
  latencyMs?: number;
  /** An HTTP error status (429, 500, 401...) answered with the provider's real error body. */
  status?: number;
  error?: string;
  /** Sent as `retry-after-ms` / `retry-after` with an error, as real providers do on 429. */
  retryAfterMs?: number;
  /** Defaults to `tool_calls` when the reply calls tools, else `stop`. */
  finishReason?: ScriptedFinishReason;
  usage?: { prompt_tokens?: number; completion_tokens?: number };
}

export type Reply = string | ReplySpec;

export interface Rule {
  /** A substring of the latest user/tool message, or "/regex/flags". */
  match: string | RegExp;
  reply: Reply;
  /** How many times the rule may answer; unlimited when absent. */
  times?: number;
}

export interface Script {
  /** replies[i] answers turn i of a conversation (turn = assistant messages already in the request). */
  replies?: Reply[];
  /** Tried before `replies`; the first match answers. */
  rules?: Rule[];
  latencyMs?: number;
  /** Answers any turn that neither a rule nor `replies` covers. */
  fallback?: Reply;
}

export class ScriptError extends Error {
  override readonly name = 'ScriptError';
}

export function toReplySpec(reply: Reply): ReplySpec {
  return typeof reply === 'string' ? { text: reply } : reply;
}

export function compileMatcher(match: string | RegExp): (text: string) => boolean {
  const regex = match instanceof RegExp ? match : parseSlashRegex(match);
  if (regex) return (text) => regex.test(text);
  return (text) => text.includes(match as string);
}

function parseSlashRegex(source: string): RegExp | undefined {
  const found = /^\/(.+)\/([a-z]*)$/s.exec(source);
  if (!found) return undefined;
  try {
    return new RegExp(found[1], found[2].replace('g', ''));
  } catch (error) {
    throw new ScriptError(
      `rule match ${source} is not a valid regular expression: ${(error as Error).message}`,
    );
  }
}

/** Checks a script that arrived as untyped JSON; throws a ScriptError naming the bad field. */
export function parseScript(value: unknown): Script {
  if (!isObject(value)) throw new ScriptError('a script must be a JSON object');
  const script = value as Script;
  if (script.replies !== undefined) {
    if (!Array.isArray(script.replies)) throw new ScriptError('replies must be an array');
    script.replies.forEach((reply, i) => checkReply(reply, `replies[${i}]`));
  }
  if (script.rules !== undefined) {
    if (!Array.isArray(script.rules)) throw new ScriptError('rules must be an array');
    script.rules.forEach((rule, i) => checkRule(rule, `rules[${i}]`));
  }
  if (script.fallback !== undefined) checkReply(script.fallback, 'fallback');
  checkOptionalNumber(script.latencyMs, 'latencyMs');
  return script;
}

function checkRule(rule: unknown, where: string): void {
  if (!isObject(rule)) throw new ScriptError(`${where} must be an object`);
  const match = rule['match'];
  if (typeof match !== 'string' && !(match instanceof RegExp)) {
    throw new ScriptError(`${where}.match must be a string or "/regex/flags"`);
  }
  compileMatcher(match);
  checkReply(rule['reply'], `${where}.reply`);
  checkOptionalNumber(rule['times'], `${where}.times`);
}

function checkReply(reply: unknown, where: string): void {
  if (typeof reply === 'string') return;
  if (!isObject(reply)) throw new ScriptError(`${where} must be a string or an object`);
  if (reply['text'] !== undefined && typeof reply['text'] !== 'string') {
    throw new ScriptError(`${where}.text must be a string`);
  }
  checkOptionalNumber(reply['latencyMs'], `${where}.latencyMs`);
  checkOptionalNumber(reply['status'], `${where}.status`);
  checkOptionalNumber(reply['retryAfterMs'], `${where}.retryAfterMs`);
  const toolCalls = reply['toolCalls'];
  if (toolCalls === undefined) return;
  if (!Array.isArray(toolCalls)) throw new ScriptError(`${where}.toolCalls must be an array`);
  toolCalls.forEach((call, i) => {
    if (!isObject(call) || typeof call['name'] !== 'string' || !isObject(call['arguments'])) {
      throw new ScriptError(`${where}.toolCalls[${i}] must be {name: string, arguments: object}`);
    }
  });
}

function checkOptionalNumber(value: unknown, where: string): void {
  if (value !== undefined && (typeof value !== 'number' || !Number.isFinite(value) || value < 0)) {
    throw new ScriptError(`${where} must be a non-negative number`);
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
