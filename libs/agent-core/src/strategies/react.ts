import type { ClientToolCall, TraceStep, Usage } from '@app/contracts';
import { buildSystemPrompt, type PromptFunction, xmlToonExample } from '@app/protocol';
import type { ChatMessage, CompletionResult } from '../model/model-client';
import { modelStep } from '../model/model-step';
import { assistantTurn, nativeTools, readReply, resultTurns, type ReadReply } from '../model/reply-reader';
import type { RunContext } from '../run-context';
import { answered, ended, type RunOutcome } from '../run-outcome';
import type { ClientToolSet } from '../tools/client-tool-set';
import { awaitingApprovalReply } from '../tools/approval-gate';
import type { ToolCall, ToolOutcome } from '../tools/tool-call';
import { type ClientAnswer, clientAnswers } from '../tools/client-answers';
import { toolStep } from '../tools/tool-step';
import { allowedFunctions } from './allowed-functions';
import { systemTurns } from '../prompts/system-turns';

/** Consecutive unreadable replies a run survives: the first gets a repair round, the second ends it. */
const REPAIR_ROUNDS = 1;

type Actionable = Exclude<ReadReply, { kind: 'invalid' }>;

/**
 * The ReAct loop: the model sees a system prompt listing only the functions its agent allows,
 * replies, the reply is read in the agent's protocol, calls are executed (refusals reported
 * back), results go back, until a final answer or a limit ends the run.
 */
export async function runReact(ctx: RunContext, conversation: ChatMessage[]): Promise<RunOutcome> {
  const { run } = ctx;
  const { protocol, max_steps: maxSteps } = run.definition;
  const functions = await allowedFunctions(ctx);
  const offered = [...functions, ...(ctx.clientTools?.functions() ?? [])];
  const messages: ChatMessage[] = [
    ...systemTurns(systemPrompt(ctx, offered), run.definition),
    ...conversation,
  ];
  const tools = protocol === 'native' && functions.length > 0 ? nativeTools(functions) : undefined;
  for (;;) {
    // Until the reply is complete nobody knows whether it ends in calls (its text is then a
    // thought), so a step's answer is published once, after it has been read.
    const step = await modelStep<Actionable>(ctx, messages, {
      tools,
      deltas: 'none',
      maxSteps,
      repairs: REPAIR_ROUNDS,
      repairsToolArguments: true,
      replay: (result) => assistantTurn(result, protocol),
      read: (result) => {
        const reply = readReply(result, protocol, ctx.prompts);
        if (reply.kind !== 'invalid') return { ok: true, value: reply };
        ctx.metrics?.parseFailure?.(protocol);
        return { ok: false, error: reply.error };
      },
    });
    if (!step.ok) return step.outcome;
    const { value: reply, result, tokens } = step;
    if (reply.kind === 'final') {
      run.addTrace({ step: run.step, kind: 'final', elapsed_ms: result.elapsedMs, tokens });
      if (ctx.inbox?.waiting() && run.step < maxSteps) {
        // The caller wrote while the model answered: another step reads it, rather than drop it.
        if (reply.answer) run.emit('thought', { step: run.step, text: reply.answer });
        messages.push(assistantTurn(result, protocol));
        continue;
      }
      if (reply.answer) run.emit('delta', { step: run.step, text: reply.answer });
      return answered(reply.answer);
    }
    // The tokens are spent; calls whose results nobody will read are not worth their side effects.
    if (run.overBudget()) return ended(run, 'budget');
    const clientTools = ctx.clientTools?.calledIn(reply.calls) ? ctx.clientTools : undefined;
    const answers = clientTools && clientAnswers(ctx, clientTools, reply.calls);
    if (clientTools && !answers)
      return holdForCaller(ctx, clientTools, result, reply.calls, reply.thought, tokens);
    const stop = answers
      ? await actAnswered(
          ctx,
          messages,
          { result, calls: reply.calls, thought: reply.thought, tokens },
          answers,
        )
      : await act(ctx, messages, result, reply.calls, reply.thought, tokens);
    if (stop) return stop;
  }
}

async function act(
  ctx: RunContext,
  messages: ChatMessage[],
  result: CompletionResult,
  calls: ToolCall[],
  thought: string | undefined,
  tokens: Usage,
): Promise<RunOutcome | undefined> {
  const { run } = ctx;
  const { protocol } = run.definition;
  if (thought) run.emit('thought', { step: run.step, text: thought });
  messages.push(assistantTurn(result, protocol));
  const batch = await toolStep(ctx, calls, { hold: true });
  if (batch.held)
    return {
      finishReason: 'awaiting_approval',
      reply: awaitingApprovalReply(batch.held),
      heldCalls: batch.held,
    };
  batch.outcomes.forEach((outcome, i) =>
    run.addTrace(actionStep(run.step, outcome, i === 0 ? { thought, tokens } : {})),
  );
  messages.push(...resultTurns(batch.outcomes, protocol));
  if (run.abortReason) return ended(run, run.abortReason);
  if (batch.limitReached) return ended(run, 'max_tool_calls');
  return undefined;
}

/**
 * The reply the run paused on, now that the caller has answered its client calls: its platform
 * calls (journaled when it paused) and the caller's results go back to the model in call order,
 * as one reply's results, and the run goes on.
 */
async function actAnswered(
  ctx: RunContext,
  messages: ChatMessage[],
  reply: { result: CompletionResult; calls: ToolCall[]; thought?: string; tokens: Usage },
  answer: ClientAnswer,
): Promise<RunOutcome | undefined> {
  const { run } = ctx;
  const clientTools = ctx.clientTools as ClientToolSet;
  const { protocol } = run.definition;
  if (reply.thought) run.emit('thought', { step: run.step, text: reply.thought });
  messages.push(assistantTurn(reply.result, protocol));
  const platformCalls = reply.calls.filter((call) => !clientTools.has(call.name));
  const executed = platformCalls.length > 0 ? (await toolStep(ctx, platformCalls)).outcomes : [];
  if (run.abortReason) return ended(run, run.abortReason);
  const outcomes: ToolOutcome[] = [];
  for (const [index, call] of reply.calls.entries()) {
    const opening = index === 0 ? { thought: reply.thought, tokens: reply.tokens } : {};
    if (!clientTools.has(call.name)) {
      const outcome = executed.shift() as ToolOutcome;
      run.addTrace(actionStep(run.step, outcome, opening));
      outcomes.push(outcome);
      continue;
    }
    const outcome = await answer(call, index);
    const asked = clientTools.pendingCall(call, run.runId, index);
    run.addTrace({ ...clientStep(run.step, asked, opening), observation: outcome.observation });
    outcomes.push(outcome);
  }
  const turns = resultTurns(outcomes, protocol);
  const note = ctx.clientResults?.takeMessage();
  const last = turns.at(-1);
  // a text protocol's results are one user turn: what the caller wrote after them joins it
  if (note && last?.role === 'user') last.content = `${last.content}\n\n${note}`;
  messages.push(...turns);
  return undefined;
}

/**
 * A reply that calls a client tool ends the run with `client_tool_calls` (the run waits on the
 * caller). The platform calls of the same reply run first; every call of the reply is kept, in
 * order, as the last step of the trace (platform calls with their observation, client calls with
 * their id), so the next turn can hand the model all the results of that reply at once, as the
 * protocol expects. The session keeps the model's reply as written, so the conversation replays
 * as it happened.
 */
async function holdForCaller(
  ctx: RunContext,
  clientTools: ClientToolSet,
  result: CompletionResult,
  calls: ToolCall[],
  thought: string | undefined,
  tokens: Usage,
): Promise<RunOutcome> {
  const { run } = ctx;
  if (thought) run.emit('thought', { step: run.step, text: thought });
  const platformCalls = calls.filter((call) => !clientTools.has(call.name));
  const executed = platformCalls.length > 0 ? (await toolStep(ctx, platformCalls)).outcomes : [];
  if (run.abortReason) return ended(run, run.abortReason);
  const pending: ClientToolCall[] = [];
  calls.forEach((call, index) => {
    const opening = index === 0 ? { thought, tokens } : {};
    if (clientTools.has(call.name)) {
      const asked = clientTools.pendingCall(call, run.runId, index);
      pending.push(asked);
      run.addTrace(clientStep(run.step, asked, opening));
    } else run.addTrace(actionStep(run.step, executed.shift() as ToolOutcome, opening));
  });
  return {
    finishReason: 'client_tool_calls',
    reply: thought ?? '',
    transcript: result.text,
    clientCalls: pending,
  };
}

/** The first call of a reply carries the reply's thought and tokens. */
interface Opening {
  thought?: string;
  tokens?: Usage;
}

function actionStep(step: number, outcome: ToolOutcome, opening: Opening): TraceStep {
  return {
    step,
    kind: 'action',
    ...(opening.thought ? { thought: opening.thought } : {}),
    action: { tool: outcome.call.name, args: outcome.args },
    observation: outcome.observation,
    ...(outcome.error ? { error: outcome.error.message } : {}),
    elapsed_ms: outcome.elapsedMs,
    ...(opening.tokens ? { tokens: opening.tokens } : {}),
  };
}

function clientStep(step: number, call: ClientToolCall, opening: Opening): TraceStep {
  return {
    step,
    kind: 'client_tool_call',
    ...(opening.thought ? { thought: opening.thought } : {}),
    action: { tool: call.name, args: call.arguments },
    call_id: call.id,
    elapsed_ms: 0,
    ...(opening.tokens ? { tokens: opening.tokens } : {}),
  };
}

function systemPrompt(ctx: RunContext, functions: PromptFunction[]): string {
  const { definition } = ctx.run;
  return buildSystemPrompt({
    functions,
    protocol: definition.protocol,
    instructions: definition.system_prompt,
    definitionBudget: definition.function_definition_budget,
    model: definition.model,
    guide: callingGuide(ctx),
  });
}

function callingGuide({ run, prompts }: RunContext): string | undefined {
  const { protocol } = run.definition;
  if (protocol === 'xml-toon') return prompts.render('react_guide_xml_toon', { example: xmlToonExample() });
  if (protocol === 'json-action') return prompts.render('react_guide_json_action');
  return undefined;
}
