import type { AgentRunReply, ClientToolCall, FunctionCallSummary, RunView } from '@app/contracts';

/** Statuses at which a turn has answered: the run ended, or paused for its caller. */
const ANSWERED = new Set(['completed', 'failed', 'cancelled', 'awaiting_approval', 'awaiting_tool_results']);

/** Whether the stored run has given its turn's answer. */
export function hasAnswered(run: RunView): boolean {
  return ANSWERED.has(run.status) && run.finish_reason !== null;
}

/**
 * The reply `agent.run` would have given, built from the stored run: for a caller whose reply was
 * lost with the bus connection. The calls' results are their observations as the model read them.
 */
export function replyFromRun(run: RunView): AgentRunReply {
  const finish = run.finish_reason ?? 'error';
  const calls: FunctionCallSummary[] = [];
  const lastStep = lastStepOf(run);
  const clientCalls: ClientToolCall[] = [];
  for (const step of run.trace) {
    if (!step.action) continue;
    if (step.kind === 'client_tool_call' && step.call_id) {
      // those of the last model step are the ones the run waits for; earlier ones were answered
      if (step.step === lastStep)
        clientCalls.push({ id: step.call_id, name: step.action.tool, arguments: step.action.args });
    } else if (step.kind === 'action' || step.kind === 'plan_step')
      calls.push({
        name: step.action.tool,
        status: step.error ? 'error' : 'success',
        result: step.error ?? step.observation ?? null,
      });
  }
  return {
    session_id: run.session_id ?? '',
    run_id: run.id,
    reply: run.reply ?? '',
    function_calls: calls,
    finish_reason: finish,
    usage: { ...run.usage },
    // The model's failure is stored as text only: the gateway answers it as the upstream's error.
    ...(finish === 'error'
      ? { error: { code: 'upstream_error', message: run.error ?? 'the run failed before it could answer' } }
      : {}),
    ...(clientCalls.length > 0 && finish === 'client_tool_calls' ? { client_tool_calls: clientCalls } : {}),
    ...(run.approvals?.length ? { approvals: run.approvals } : {}),
  };
}

/** The ids of the client tool calls a paused run waits for: those of its last model step. */
export function pendingClientCalls(run: RunView): string[] {
  const lastStep = lastStepOf(run);
  return run.trace.flatMap((step) =>
    step.kind === 'client_tool_call' && step.call_id && step.step === lastStep ? [step.call_id] : [],
  );
}

function lastStepOf(run: RunView): number {
  return run.trace.reduce((last, step) => Math.max(last, step.step), 0);
}
