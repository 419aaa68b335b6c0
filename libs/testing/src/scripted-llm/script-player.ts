import {
  compileMatcher,
  parseScript,
  type Reply,
  type Script,
  type ScriptedFinishReason,
  type ScriptedToolCall,
  toReplySpec,
} from './script';

export const NO_REPLY_TEXT = '[scripted-llm] no reply scripted for this turn';

/** What the server read from one request, whatever the wire format. */
export interface Turn {
  /** `x-scripted-conversation` header, else the first user message. */
  conversation: string;
  /** Assistant messages already in the request. */
  index: number;
  /** Content of the latest user or tool message. */
  lastContent: string;
  lastUserContent: string;
  /** The credential the client sent; only ever used by the `{{api_key}}` template. */
  apiKey: string;
}

export interface PlannedReply {
  text: string;
  toolCalls: ScriptedToolCall[];
  latencyMs: number;
  status: number;
  error?: string;
  retryAfterMs?: number;
  finishReason: ScriptedFinishReason;
  usage?: { prompt_tokens?: number; completion_tokens?: number };
}

interface CompiledRule {
  matches: (text: string) => boolean;
  reply: Reply;
  remaining: number;
}

/**
 * Chooses the reply for a turn. Ordered replies are picked statelessly from the turn index, so
 * concurrent conversations never interleave. The one piece of state is the count of error replies
 * served per conversation: an error leaves no assistant message behind, so the retry that follows
 * must move on to the next scripted reply.
 */
export class ScriptPlayer {
  private script: Script = {};
  private rules: CompiledRule[] = [];
  private readonly errorsServed = new Map<string, number>();

  constructor(
    script: Script = {},
    private readonly defaultLatencyMs = 0,
  ) {
    this.load(script);
  }

  load(script: Script): void {
    this.script = parseScript(script);
    this.rules = (script.rules ?? []).map((rule) => ({
      matches: compileMatcher(rule.match),
      reply: rule.reply,
      remaining: rule.times ?? Number.POSITIVE_INFINITY,
    }));
    this.errorsServed.clear();
  }

  next(turn: Turn): PlannedReply {
    const rule = this.rules.find(
      (candidate) => candidate.remaining > 0 && candidate.matches(turn.lastContent),
    );
    if (rule) {
      rule.remaining -= 1;
      return this.plan(rule.reply, turn);
    }
    const position = turn.index + (this.errorsServed.get(turn.conversation) ?? 0);
    const planned = this.plan(this.script.replies?.[position] ?? this.script.fallback ?? NO_REPLY_TEXT, turn);
    if (planned.status >= 400 && position < (this.script.replies?.length ?? 0)) {
      this.errorsServed.set(turn.conversation, (this.errorsServed.get(turn.conversation) ?? 0) + 1);
    }
    return planned;
  }

  private plan(reply: Reply, turn: Turn): PlannedReply {
    const spec = toReplySpec(reply);
    const toolCalls = (spec.toolCalls ?? []).map((call) => ({
      name: call.name,
      arguments: fillTemplates(call.arguments, turn) as Record<string, unknown>,
    }));
    return {
      text: fillTemplates(spec.text ?? '', turn) as string,
      toolCalls,
      latencyMs: spec.latencyMs ?? this.script.latencyMs ?? this.defaultLatencyMs,
      status: spec.status ?? 200,
      error: spec.error === undefined ? undefined : (fillTemplates(spec.error, turn) as string),
      retryAfterMs: spec.retryAfterMs,
      finishReason: spec.finishReason ?? (toolCalls.length > 0 ? 'tool_calls' : 'stop'),
      usage: spec.usage,
    };
  }
}

/** `{{last}}`, `{{last_user}}` and `{{api_key}}` in strings, also inside tool-call arguments. */
function fillTemplates(value: unknown, turn: Turn): unknown {
  if (typeof value === 'string') {
    return value
      .replaceAll('{{last_user}}', turn.lastUserContent)
      .replaceAll('{{last}}', turn.lastContent)
      .replaceAll('{{api_key}}', turn.apiKey);
  }
  if (Array.isArray(value)) return value.map((item) => fillTemplates(item, turn));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, fillTemplates(item, turn)]));
  }
  return value;
}
