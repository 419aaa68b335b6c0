import type { ModelPrice, Usage } from '@app/contracts';
import { countTokens } from '@app/protocol/portable';
import type { Agent } from './agent';
import type { AgentResult, RunInput } from './agent-types';
import { costOf } from './cost';
import { LimitExceeded } from './errors';
import { newId } from './ids';
import { addTokens } from './usage';
import type { ChatMessage } from './model/model-client';
import type { SessionStore, StoredTurnMessage } from './ports';
import type { RunContext } from './run-context';
import { InMemorySessionStore } from './session/in-memory-session.store';
import { foldHistory, historyTurns, windowHistory } from './session/history-window';

export interface SessionSettings {
  /** Turns the session takes; the next one is refused with `LimitExceeded`. */
  maxTurns?: number;
  /** Turns that may call functions; later turns are offered none. */
  maxToolTurns?: number;
  /** Milliseconds of inactivity after which the session is over. */
  ttlMs?: number;
  /** The model's price (USD per million tokens), for `cost`. */
  pricing?: ModelPrice;
  /**
   * Counts a message's tokens for the history window, and for the prompt estimate a USD budget
   * reserves by (default: the agent's model's tokenizer).
   */
  countTokens?: (text: string) => number;
}

export interface SessionOptions {
  sessionId?: string;
  store?: SessionStore;
  settings?: SessionSettings;
}

export type TurnInput = Omit<RunInput, 'history' | 'sessionId'>;

/**
 * A conversation with one agent: each turn sees the session's history (windowed to the agent's
 * context, older turns folded into a summary) and is appended to it; the session counts its
 * turns and what they cost.
 */
export class AgentSession {
  readonly id: string;
  readonly usage: Usage = { prompt_tokens: 0, completion_tokens: 0 };
  private turns = 0;
  private toolTurns = 0;
  private lastActive: number;
  private readonly store: SessionStore;
  private readonly settings: SessionSettings;

  constructor(
    private readonly agent: Agent,
    options: SessionOptions = {},
  ) {
    this.id = options.sessionId ?? newId('ses');
    this.store = options.store ?? agent.runtime.ports.sessions ?? new InMemorySessionStore();
    this.settings = options.settings ?? {};
    this.lastActive = this.now();
  }

  /** Turns taken so far. */
  get turnIndex(): number {
    return this.turns;
  }

  /** What the turns so far cost, at the session's pricing (0 without one). */
  get cost(): number {
    return this.settings.pricing ? costOf(this.usage, this.settings.pricing) : 0;
  }

  async submitTurn(message: string | TurnInput): Promise<AgentResult> {
    const input = typeof message === 'string' ? { message } : message;
    this.checkOpen();
    const noTools = this.settings.maxToolTurns !== undefined && this.toolTurns >= this.settings.maxToolTurns;
    const agent = noTools ? this.agent.withDefinition({ allowed_tools: [] }) : this.agent;
    this.turns += 1;
    const result = await agent.run({
      ...input,
      sessionId: this.id,
      history: (ctx) => this.history(ctx),
      price: input.price ?? this.settings.pricing,
    });
    this.lastActive = this.now();
    addTokens(this.usage, result.usage);
    if (result.function_calls.length > 0) this.toolTurns += 1;
    if (result.phase !== 'awaiting_approval') await this.append(input.message, result.transcript);
    return result;
  }

  private checkOpen(): void {
    const { maxTurns, ttlMs } = this.settings;
    if (maxTurns !== undefined && this.turns >= maxTurns)
      throw new LimitExceeded('max_turns', `the session has taken its ${maxTurns} turns`);
    if (ttlMs !== undefined && this.now() - this.lastActive > ttlMs)
      throw new LimitExceeded('session_expired', `the session expired after ${ttlMs} ms without a turn`);
  }

  private async history(ctx: RunContext): Promise<ChatMessage[]> {
    const stored = await this.store.load(this.id);
    const { kept, folded } = windowHistory(stored.messages, this.agent.definition.context_window);
    let summary = stored.summary;
    const fold = await foldHistory(ctx, summary, folded);
    if (fold && 'summary' in fold) {
      summary = fold.summary;
      await this.store.saveSummary(this.id, summary, folded);
    }
    return historyTurns(ctx, summary, kept);
  }

  private append(input: string, reply: string): Promise<void> {
    return this.store.append(this.id, [this.message('user', input), this.message('assistant', reply)]);
  }

  private message(role: 'user' | 'assistant', content: string): StoredTurnMessage {
    const count =
      this.settings.countTokens ?? ((text: string) => countTokens(text, this.agent.definition.model));
    return { role, content, tokens: count(content) };
  }

  private now(): number {
    return this.agent.runtime.ports.clock?.now() ?? Date.now();
  }
}
