import type { AgentProtocol, TraceStep, Usage, UsedTools } from '@app/contracts';
import type { ChatMessage, CompletionResult } from '../model/model-client';
import { assistantTurn, readReply, repairTurn, resultTurns } from '../model/reply-reader';
import { PromptSet } from '../prompts/prompt-set';
import type { ToolOutcome } from '../tools/tool-call';
import type { JournalEntry, ModelStepEntry, ToolCallEntry } from './journal-entry';
import { addTokens } from '../usage';

/** What a ReAct run had after its last journaled step: enough to carry on from there. */
export interface ReplayedRun {
  /** The conversation the model is sent at the next step. */
  messages: ChatMessage[];
  usage: Usage;
  /** Model steps taken. */
  step: number;
  toolCallsExecuted: number;
  usedTools: UsedTools;
  trace: TraceStep[];
}

export interface ReplayOptions {
  protocol: AgentProtocol;
  /** The agent's prompts, which wrote its repair turns; the English ones when absent. */
  prompts?: PromptSet;
  /** What the run's first model step was sent: the system turn and the conversation. */
  opening: ChatMessage[];
}

/**
 * Rebuilds a ReAct run from its journal: each reply is read again in the agent's protocol and
 * replayed as the live run did (calls with their results, an unreadable reply with its repair
 * turn), so the rebuilt conversation is the one the next model step would have been sent.
 */
export function replayJournal(entries: readonly JournalEntry[], options: ReplayOptions): ReplayedRun {
  const replayed: ReplayedRun = {
    messages: [...options.opening],
    usage: { prompt_tokens: 0, completion_tokens: 0 },
    step: 0,
    toolCallsExecuted: 0,
    usedTools: {},
    trace: [],
  };
  const prompts = options.prompts ?? new PromptSet({});
  // a call's start matters only to a run taken over; its outcome is what the model read
  const ordered = entries.filter((entry) => entry.kind !== 'tool_started').sort((a, b) => a.seq - b.seq);
  for (let i = 0; i < ordered.length; i++) {
    const entry = ordered[i];
    if (entry.kind === 'user_message') {
      replayed.messages.push({ role: 'user', content: entry.text });
      replayed.trace.push({ step: entry.step, kind: 'user_message', message: entry.text, elapsed_ms: 0 });
    }
    if (entry.kind !== 'model_step') continue;
    const calls: ToolCallEntry[] = [];
    while (ordered[i + 1]?.kind === 'tool_call') calls.push(ordered[++i] as ToolCallEntry);
    // journaled as they settled; the model read them in call order
    calls.sort((a, b) => a.index - b.index);
    replayStep(replayed, entry, calls, options.protocol, prompts);
  }
  return replayed;
}

function replayStep(
  replayed: ReplayedRun,
  entry: ModelStepEntry,
  calls: ToolCallEntry[],
  protocol: AgentProtocol,
  prompts: PromptSet,
): void {
  replayed.step = Math.max(replayed.step, entry.step);
  addTokens(replayed.usage, entry.usage);
  const result = resultOf(entry);
  const reply = readReply(result, protocol, prompts);
  const tokens = { ...entry.usage };
  const base = { step: entry.step, elapsed_ms: entry.elapsedMs, tokens };
  if (reply.kind === 'invalid') {
    replayed.trace.push({ ...base, kind: 'parse_error', error: reply.error });
    replayed.messages.push(assistantTurn(result, protocol), repairTurn(reply.error));
    return;
  }
  if (reply.kind === 'final') {
    replayed.trace.push({ ...base, kind: 'final' });
    replayed.messages.push(assistantTurn(result, protocol));
    return;
  }
  replayed.messages.push(assistantTurn(result, protocol));
  calls.forEach((call, i) => {
    replayed.trace.push(actionStep(call, i === 0 ? { thought: reply.thought, tokens } : {}));
    if (!call.executed) return;
    replayed.toolCallsExecuted += 1;
    const stats = (replayed.usedTools[call.name] ??= { count: 0, total_ms: 0 });
    stats.count += 1;
    stats.total_ms += call.elapsedMs;
  });
  if (calls.length > 0) replayed.messages.push(...resultTurns(calls.map(outcomeOf), protocol));
}

function resultOf(entry: ModelStepEntry): CompletionResult {
  return {
    text: entry.text,
    toolCalls: entry.toolCalls,
    usage: entry.usage,
    stopReason: entry.stopReason,
    model: '',
    provider: '',
    elapsedMs: entry.elapsedMs,
  };
}

function outcomeOf(call: ToolCallEntry): ToolOutcome {
  return {
    call: { name: call.name, params: call.args, ...(call.callId ? { id: call.callId } : {}) },
    args: call.args,
    status: call.status,
    ...(call.error ? { error: call.error } : {}),
    executed: call.executed,
    elapsedMs: call.elapsedMs,
    observation: call.observation,
  };
}

function actionStep(call: ToolCallEntry, opening: { thought?: string; tokens?: Usage }): TraceStep {
  return {
    step: call.step,
    kind: 'action',
    ...(opening.thought ? { thought: opening.thought } : {}),
    action: { tool: call.name, args: call.args },
    observation: call.observation,
    ...(call.error ? { error: call.error.message } : {}),
    elapsed_ms: call.elapsedMs,
    ...(opening.tokens ? { tokens: opening.tokens } : {}),
  };
}
