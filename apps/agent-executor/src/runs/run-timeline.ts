import type { ApprovalDecisionView, TimelineSpan, TraceStep, Usage } from '@app/contracts';
import type { HeldApproval, PlanDecision } from '../store/held-approval';
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

/** What a run's decisions come from: its held calls, and its plan held whole. */
export interface DecidedOn {
  approvals: HeldApproval[];
  plan_decision: PlanDecision | null;
}

/** The decisions taken on a run's held calls and on its plan, oldest first: who decided what, and when. */
export function decisionsOf(run: DecidedOn): ApprovalDecisionView[] {
  return [
    ...run.approvals.filter((held) => held.decision && held.decided_at).map(callDecision),
    ...planDecisions(run),
  ].sort((a, b) => a.at.localeCompare(b.at));
}

function callDecision(held: HeldApproval): ApprovalDecisionView {
  const decision = held.decision!;
  const timedOut = held.decided_by === 'timeout';
  return {
    kind: 'call',
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
}

function planDecisions({ plan_decision: plan }: DecidedOn): ApprovalDecisionView[] {
  if (!plan) return [];
  return [
    {
      kind: 'plan',
      call_id: planCallId(plan),
      function: '',
      action: plan.action,
      by: plan.decider,
      ...(plan.decider_key ? { key_id: plan.decider_key } : {}),
      at: plan.decided_at,
      asked_at: plan.asked_at,
      ...(plan.reason ? { reason: plan.reason } : {}),
    },
  ];
}

/** A plan's decision is named by its revision: `plan:0` for the plan first written. */
function planCallId(plan: PlanDecision): string {
  return `plan:${plan.revision}`;
}

/** The run's trace with each decision, on a held call or on the plan, as an `approval` step at the call's or the plan's step. */
export function traceWithDecisions(trace: TraceStep[], run: DecidedOn): TraceStep[] {
  const decisions = decisionsOf(run);
  if (decisions.length === 0) return trace;
  const stepOf = new Map(run.approvals.map((held) => [held.call_id, held.step]));
  if (run.plan_decision) stepOf.set(planCallId(run.plan_decision), run.plan_decision.step);
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
