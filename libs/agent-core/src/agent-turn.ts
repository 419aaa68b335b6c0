import type { AgentRunReply } from '@app/contracts';
import type { AgentDefinition } from './agent-definition';
import type { AgentResult, ExecuteOptions, RunInput } from './agent-types';
import { fanOut } from './event-stream';
import { newId } from './ids';
import { resumeFromJournal } from './journal/journal-replay';
import { functionsWithMemory } from './memory/run-memory';
import type { ChatMessage } from './model/model-client';
import { PromptSet } from './prompts/prompt-set';
import type { RunContext } from './run-context';
import type { AgentRuntime } from './runtime';
import { failureOf } from './run-failure';
import { type RunOutcome, statusOf } from './run-outcome';
import { frameRun } from './run-frame';
import { type PriorProgress, RunState } from './run-state';
import { replyOf, runStrategy } from './run-turn';
import { rejectPlan } from './strategies/plan-rejection';
import { ClientToolSet } from './tools/client-tool-set';
import { settleInbox } from './inbox/settle-inbox';

// An agent's turns: what `Agent.execute` and `Agent.reject` run. Its own module, which agent.ts
// loads at an agent's first turn: with it come the run frame, the strategies, the tools, the
// journal's replay and the memory functions, which an agent made and not run yet does not need.

/** What a turn reads of its agent: agent.ts passes the agent itself (this module imports nothing of it). */
export interface TurnAgent<D extends AgentDefinition> {
  readonly runtime: AgentRuntime;
  readonly definition: D;
}

/**
 * One turn, in the run frame: `run_start` (or `run_resumed`), the strategy, the ending recorded,
 * hooks told, the host's record of its end, `run_end`.
 */
export async function executeTurn<D extends AgentDefinition>(
  agent: TurnAgent<D>,
  input: RunInput,
  options: ExecuteOptions<D>,
): Promise<AgentResult> {
  const run = newRun(agent, input, options);
  const ctx = contextFor(agent, run, input);
  const { hooks, journal } = agent.runtime.ports;
  const stop = () => run.abort('cancelled');
  if (input.signal?.aborted) stop();
  input.signal?.addEventListener('abort', stop, { once: true });
  options.prepare?.(run);
  try {
    const { ended, ...host } = options.host ?? {};
    const outcome = await frameRun(run, {
      ...host,
      hooks,
      journal,
      resumed: options.resume?.resumed,
      work: () => work(agent, ctx, input, options),
    });
    const reply = ended ? await ended(run, outcome) : replyOf(run, outcome);
    return result(agent, run, input, outcome, reply);
  } finally {
    input.signal?.removeEventListener('abort', stop);
  }
}

/** Ends a run held for approval as `rejected`: none of its plan's steps runs, no model or hook is called. */
export async function rejectTurn<D extends AgentDefinition>(
  agent: TurnAgent<D>,
  input: RunInput,
  prior: PriorProgress,
  reason?: string,
): Promise<AgentResult> {
  const run = newRun(agent, input, { prior });
  run.close();
  const { plan, outcome } = rejectPlan(run.plan, reason);
  run.setPlan(plan);
  run.transition(statusOf(outcome.finishReason));
  const { journal } = agent.runtime.ports;
  await journal?.planChanged(run);
  await journal?.runEnded(run, outcome);
  return result(agent, run, input, outcome, replyOf(run, outcome));
}

function newRun<D extends AgentDefinition>(
  agent: TurnAgent<D>,
  input: RunInput,
  options: ExecuteOptions<D>,
): RunState<D> {
  const { runtime, definition } = agent;
  const identity = {
    runId: input.runId ?? newId('run'),
    sessionId: input.sessionId ?? '',
    principal: input.principal,
    ...(input.keyId ? { keyId: input.keyId } : {}),
    scopes: input.scopes,
    ...(input.chain ? { chain: input.chain } : {}),
  };
  return new RunState(identity, definition, {
    timeoutMs: runtime.timeoutFor(definition),
    events: fanOut(runtime.ports.events, options.stream),
    clock: runtime.ports.clock,
    prior: options.prior,
    price: input.price,
  });
}

function contextFor<D extends AgentDefinition>(
  agent: TurnAgent<D>,
  run: RunState<D>,
  input: RunInput,
): RunContext<D> {
  const { ports } = agent.runtime;
  return {
    run,
    model: ports.model,
    functions: functionsWithMemory(ports.functions, ports.memory, agent.definition, input),
    prompts: new PromptSet(agent.definition),
    hooks: ports.hooks,
    journal: ports.journal,
    metrics: ports.metrics,
    spend: ports.spend,
    clientTools: input.clientTools?.length ? new ClientToolSet(input.clientTools) : undefined,
    inbox: run.inbox,
  };
}

/**
 * The turn's work (from its journal, for a run carried on): the hooks told it started, its
 * history loaded, its strategy. A plan the run
 * holds before its work (a caller's) is announced first, as a model's is once written; one taken
 * up after its approval was announced before.
 */
async function work<D extends AgentDefinition>(
  agent: TurnAgent<D>,
  base: RunContext<D>,
  input: RunInput,
  options: ExecuteOptions<D>,
): Promise<RunOutcome> {
  const { run } = base;
  const { resume } = options;
  // Muted from here: the run's resumption is told, its replayed steps were told before.
  const ctx = resume
    ? {
        ...resumeFromJournal(base, resume.replay),
        approvals: resume.approvals,
        ...(resume.clientResults ? { clientResults: resume.clientResults } : {}),
      }
    : base;
  if (run.plan && !options.prior) run.emit('plan', run.plan);
  try {
    await agent.runtime.ports.hooks?.onTurnStart?.(run);
    const history = typeof input.history === 'function' ? await input.history(ctx) : (input.history ?? []);
    const conversation: ChatMessage[] = [...history, { role: 'user', content: input.message }];
    const outcome = await runStrategy(ctx, conversation, agent.runtime.planParser);
    await settleInbox(ctx, outcome);
    return outcome;
  } finally {
    const marker = resume?.marker;
    if (marker) run.insertTrace(marker);
  }
}

function result<D extends AgentDefinition>(
  agent: TurnAgent<D>,
  run: RunState<D>,
  input: RunInput,
  outcome: RunOutcome,
  reply: AgentRunReply,
): AgentResult {
  run.emit('run_end', reply);
  const failure = failureOf(outcome, agent.definition.mode);
  return {
    ...reply,
    phase: run.phase,
    input: input.message,
    trace: [...run.trace],
    ...(run.plan ? { plan: run.plan } : {}),
    used_tools: run.usedTools,
    total_ms: run.totalMs(),
    transcript: outcome.transcript ?? outcome.reply,
    ...(failure ? { failure } : {}),
  };
}
