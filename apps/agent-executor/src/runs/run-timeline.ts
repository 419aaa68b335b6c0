import type { ApprovalDecisionView, TimelineSpan, TraceStep, Usage } from '@app/contracts';
import type { HeldApproval } from '../store/held-approval';
import type { JournalTiming } from '../store/run-journal.repository';

/**
 * A run's waterfall from its journal: each model step and function call placed on the run's clock
 * (an entry is written when it completes, so it started `elapsed_ms` before). A call's start is
 * its `tool_started` entry when it has one; a call started and never finished is `in_flight`.
 * Each model step carries its tokens and its share of the run's cost, weighed by the model's
 * price (the run's own total is what was charged).
 */
export function timelineOf(
  rows: JournalTiming[],
  runStart: Date,
  usage: Usage,
  price?: { input_per_mtok: number; output_per_mtok: number },
): TimelineSpan[] {
  const at = (date: Date, elapsed: number) => Math.max(0, date.getTime() - elapsed - runStart.getTime());
  const started = new Map<string, JournalTiming>();
  const finished = new Set<string>();
  for (const row of rows) {
    const key = `${row.step}:${row.call_index ?? 0}`;
    if (row.kind === 'tool_started') started.set(key, row);
    if (row.kind === 'tool_call') finished.add(key);
  }
  const models = rows.filter((row) => row.kind === 'model_step');
  const weight = (row: JournalTiming) =>
    price
      ? row.prompt_tokens * price.input_per_mtok + row.completion_tokens * price.output_per_mtok
      : row.prompt_tokens + row.completion_tokens;
  const totalWeight = models.reduce((sum, row) => sum + weight(row), 0);
  const spans: TimelineSpan[] = [];
  for (const row of rows) {
    const index = row.call_index ?? 0;
    if (row.kind === 'model_step') {
      const cost =
        usage.cost_usd !== undefined && totalWeight > 0
          ? (usage.cost_usd * weight(row)) / totalWeight
          : undefined;
      spans.push({
        kind: 'model',
        step: row.step,
        start_ms: at(row.created_at, row.elapsed_ms),
        elapsed_ms: row.elapsed_ms,
        usage: {
          prompt_tokens: row.prompt_tokens,
          ...(row.cached_prompt_tokens ? { cached_prompt_tokens: row.cached_prompt_tokens } : {}),
          completion_tokens: row.completion_tokens,
          ...(cost === undefined ? {} : { cost_usd: cost }),
        },
      });
    } else if (row.kind === 'tool_call') {
      const start = started.get(`${row.step}:${index}`);
      spans.push({
        kind: 'tool',
        step: row.step,
        index,
        name: row.name ?? '',
        start_ms: start ? at(start.created_at, 0) : at(row.created_at, row.elapsed_ms),
        elapsed_ms: row.elapsed_ms,
        status: row.status === 'success' ? 'success' : 'error',
        executed: row.executed,
      });
    } else if (row.kind === 'tool_started' && !finished.has(`${row.step}:${index}`)) {
      spans.push({
        kind: 'tool',
        step: row.step,
        index,
        name: row.name ?? '',
        start_ms: at(row.created_at, 0),
        elapsed_ms: 0,
        status: 'in_flight',
      });
    }
  }
  return spans;
}

/** The decisions taken on a run's held calls, oldest first: who decided what, and when. */
export function decisionsOf(approvals: HeldApproval[]): ApprovalDecisionView[] {
  return approvals
    .filter((held) => held.decision && held.decided_at)
    .sort((a, b) => a.decided_at!.localeCompare(b.decided_at!))
    .map((held) => {
      const decision = held.decision!;
      const timedOut = held.decided_by === 'timeout';
      return {
        call_id: held.call_id,
        function: held.function,
        action: timedOut ? 'timeout' : decision.action,
        by: timedOut ? '' : (held.decider ?? ''),
        ...(!timedOut && held.decider_key ? { key_id: held.decider_key } : {}),
        at: held.decided_at!,
        asked_at: held.asked_at,
        ...(decision.action === 'reject' && decision.reason ? { reason: decision.reason } : {}),
        ...(timedOut ? { reason: `the default decision applied: ${decision.action}` } : {}),
        ...(decision.action === 'approve' && decision.args ? { edited: true } : {}),
      };
    });
}

/** The run's trace with each decision on a held call as an `approval` step, at the call's step. */
export function traceWithDecisions(trace: TraceStep[], approvals: HeldApproval[]): TraceStep[] {
  const decisions = decisionsOf(approvals);
  if (decisions.length === 0) return trace;
  const stepOf = new Map(approvals.map((held) => [held.call_id, held.step]));
  const out = [...trace];
  for (const decision of decisions) {
    const step = stepOf.get(decision.call_id) ?? 0;
    const at = out.findIndex((entry) => entry.step > step);
    const entry: TraceStep = { step, kind: 'approval', call_id: decision.call_id, decision, elapsed_ms: 0 };
    if (at < 0) out.push(entry);
    else out.splice(at, 0, entry);
  }
  return out;
}
