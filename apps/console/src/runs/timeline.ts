import type { ApprovalDecisionView, RunView, TimelineSpan, TraceStep, Usage } from '@app/client';

/** One bar of the waterfall: a model step or a function call on the run's clock. */
export interface Bar extends TimelineSpan {
  key: string;
  label: string;
}

/** Something that happened at a moment (or at a step, when the moment is not known). */
export interface Marker {
  key: string;
  kind: 'approval' | 'takeover' | 'message' | 'hook';
  step: number;
  /** From the run's start; null when only the step is known. */
  at_ms: number | null;
  text: string;
}

/**
 * The run's bars: its journal's timeline when the API gives one; else placed from the trace, one
 * step after the other (a step's calls side by side), which is only as exact as the trace.
 */
export function barsOf(run: Pick<RunView, 'timeline' | 'trace'>): { bars: Bar[]; exact: boolean } {
  if (run.timeline?.length) return { bars: run.timeline.map(asBar), exact: true };
  return { bars: barsFromTrace(run.trace), exact: false };
}

function asBar(span: TimelineSpan): Bar {
  const key = span.kind === 'model' ? `m${span.step}` : `t${span.step}:${span.index ?? 0}`;
  const label =
    span.kind === 'model' ? `Step ${span.step} · model` : `Step ${span.step} · ${span.name ?? 'call'}`;
  return { ...span, key, label };
}

function barsFromTrace(trace: TraceStep[]): Bar[] {
  const bars: Bar[] = [];
  let clock = 0;
  for (const group of stepsOf(trace)) {
    const model = group.entries.find((e) => e.tokens);
    const final = group.entries.find((e) => e.kind === 'final');
    const modelMs = final?.elapsed_ms ?? 0;
    if (model || final)
      bars.push(
        asBar({
          kind: 'model',
          step: group.step,
          start_ms: clock,
          elapsed_ms: modelMs,
          ...(model?.tokens ? { usage: model.tokens } : {}),
        }),
      );
    clock += modelMs;
    let longest = 0;
    group.entries
      .filter((e) => e.kind === 'action' && e.action)
      .forEach((e, index) => {
        bars.push(
          asBar({
            kind: 'tool',
            step: group.step,
            index,
            name: e.action!.tool,
            start_ms: clock,
            elapsed_ms: e.elapsed_ms,
            status: e.error ? 'error' : 'success',
          }),
        );
        longest = Math.max(longest, e.elapsed_ms);
      });
    clock += longest;
  }
  return bars;
}

/** Takeovers, messages added mid-run, hook decisions (by step) and approvals (at their moment). */
export function markersOf(run: Pick<RunView, 'trace' | 'decisions' | 'created_at'>): Marker[] {
  const start = Date.parse(run.created_at);
  const markers: Marker[] = run.trace.flatMap((entry, i): Marker[] => {
    const at = { key: `k${i}`, step: entry.step, at_ms: null };
    if (entry.kind === 'takeover')
      return [
        { ...at, kind: 'takeover', text: `Taken over by another executor; went on from step ${entry.step}` },
      ];
    if (entry.kind === 'user_message')
      return [{ ...at, kind: 'message', text: `Message added: ${entry.message ?? ''}` }];
    if (entry.kind === 'hook' && entry.hook) return [{ ...at, kind: 'hook', text: hookText(entry) }];
    return [];
  });
  // The trace has each decision at its call's or its plan's step.
  const stepOf = new Map(run.trace.filter((e) => e.kind === 'approval').map((e) => [e.call_id, e.step]));
  for (const decision of run.decisions ?? [])
    markers.push({
      key: `a${decision.call_id}`,
      kind: 'approval',
      step: stepOf.get(decision.call_id) ?? stepOfCall(decision.call_id),
      at_ms: Number.isNaN(start) ? null : Math.max(0, Date.parse(decision.at) - start),
      text: decisionText(decision),
    });
  return markers;
}

/** `before_tool function:audit ok deny`: which hook, where, how it ended and what it decided. */
export function hookText(entry: TraceStep): string {
  const hook = entry.hook!;
  const parts = [`Hook ${hook.event} → ${hook.target}: ${hook.outcome}`];
  if (hook.decision) parts.push(`decided ${hook.decision}`);
  if (hook.policy) parts.push(`(${hook.policy})`);
  return parts.join(' ');
}

const VERB: Record<ApprovalDecisionView['action'], string> = {
  approve: 'approved',
  reject: 'rejected',
  respond: 'answered',
  timeout: 'timed out on',
};

/** `alice (key k_1) approved transfer`; on a plan held whole, `… approved the plan`. */
export function decisionText(d: ApprovalDecisionView): string {
  const by = d.by || 'Someone (no authentication)';
  const who = d.action === 'timeout' ? 'The approval timeout' : d.key_id ? `${by} (key ${d.key_id})` : by;
  const what = d.kind === 'plan' ? 'the plan' : d.function;
  const how = d.edited ? ' with edited arguments' : '';
  const why = d.reason ? `: ${d.reason}` : '';
  return `${who} ${VERB[d.action]} ${what}${how}${why}`;
}

/** `run_x:3:0` → 3. */
function stepOfCall(callId: string): number {
  const parts = callId.split(':');
  return Number(parts[parts.length - 2]) || 0;
}

export interface StepGroup {
  step: number;
  entries: TraceStep[];
}

/** The trace by model step, in order (step 0: what came before the first model call). */
export function stepsOf(trace: TraceStep[]): StepGroup[] {
  const groups = new Map<number, TraceStep[]>();
  for (const entry of trace) groups.set(entry.step, [...(groups.get(entry.step) ?? []), entry]);
  return [...groups].sort(([a], [b]) => a - b).map(([step, entries]) => ({ step, entries }));
}

/** Where the axis ends: the run's wall time, or the last bar's end if that is later. */
export function axisEnd(bars: Bar[], markers: Marker[], totalMs: number | null): number {
  const ends = [
    totalMs ?? 0,
    ...bars.map((b) => b.start_ms + b.elapsed_ms),
    ...markers.map((m) => m.at_ms ?? 0),
  ];
  return Math.max(1, ...ends);
}

/** Sums usages, keeping cost and cached tokens only where some usage has them. */
export function addUsage(usages: (Usage | undefined)[]): Usage {
  const sum: Usage = { prompt_tokens: 0, completion_tokens: 0 };
  for (const u of usages) {
    if (!u) continue;
    sum.prompt_tokens += u.prompt_tokens;
    sum.completion_tokens += u.completion_tokens;
    if (u.cost_usd !== undefined) sum.cost_usd = (sum.cost_usd ?? 0) + u.cost_usd;
    const cached = cachedOf(u);
    if (cached !== undefined) (sum as UsageWithCache).cached_prompt_tokens = (cachedOf(sum) ?? 0) + cached;
  }
  return sum;
}

/** Cached prompt tokens, where the platform reports them. */
export type UsageWithCache = Usage & { cached_prompt_tokens?: number };
export const cachedOf = (usage: Usage | undefined): number | undefined =>
  (usage as UsageWithCache | undefined)?.cached_prompt_tokens;
