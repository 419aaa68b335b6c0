import type { RunView } from '@app/contracts';
import { pendingView, undecided } from '../store/held-approval';
import type { RunRecord } from '../store/run.repository';
import { traceUrl } from './trace-url';

/** A stored run as `GET /api/v1/runs/:id` shows it; `traceUrlTemplate`: the operator's tracing UI. */
export function runView(record: RunRecord, traceUrlTemplate?: string): RunView {
  return {
    id: record.id,
    session_id: record.session_id,
    agent: record.agent,
    mode: record.mode,
    status: record.status,
    input: record.input,
    reply: record.reply,
    finish_reason: record.finish_reason,
    error: record.error,
    plan: record.plan,
    trace: record.trace,
    used_tools: record.used_tools,
    usage: record.usage,
    total_ms: record.total_ms,
    created_at: record.created_at.toISOString(),
    finished_at: record.finished_at?.toISOString() ?? null,
    trace_id: record.trace_id,
    trace_url: traceUrl(traceUrlTemplate, record.trace_id),
    takeovers: record.takeovers,
    ...(record.status === 'awaiting_approval' && record.approvals.length > 0
      ? { approvals: undecided(record.approvals).map(pendingView) }
      : {}),
    parent_run_id: record.parent_run_id,
    forked_from:
      record.forked_from === null ? null : { run_id: record.forked_from, step: record.forked_at_step ?? 1 },
  };
}
