import {
  USAGE_BUCKETS,
  type UsageBucket,
  type UsageSeries,
  type UsageView,
  type UsageWindow,
} from '@app/contracts';
import type { UsageRow } from '../store/run-usage.repository';

/** A run whose key is not recorded (it started before keys were, or no key asked: authentication off). */
export const UNKNOWN_KEY = 'unknown';

/**
 * Runs, tokens, cost and latency over the window ending at `now`, in buckets by the hour (day) or
 * by six hours (week), aligned to the bucket size so a chart's bars do not shift as time passes;
 * per agent and per key, each with its total. Latency is that of the runs that ended.
 */
export function usageStats(rows: UsageRow[], window: UsageWindow, now: Date, truncated: boolean): UsageView {
  const { buckets, bucketMs } = USAGE_BUCKETS[window];
  const end = Math.floor(now.getTime() / bucketMs) * bucketMs + bucketMs;
  const from = end - buckets * bucketMs;
  const starts = Array.from({ length: buckets }, (_, i) => new Date(from + i * bucketMs).toISOString());
  const inWindow = rows.filter((r) => r.created_at.getTime() >= from && r.created_at.getTime() < end);
  const slot = (row: UsageRow) => Math.floor((row.created_at.getTime() - from) / bucketMs);
  const seriesBy = (keyOf: (row: UsageRow) => string): UsageSeries[] => {
    const groups = new Map<string, UsageRow[]>();
    for (const row of inWindow) groups.set(keyOf(row), [...(groups.get(keyOf(row)) ?? []), row]);
    return [...groups]
      .map(([key, group]) => ({
        key,
        buckets: starts.map((start, i) =>
          bucketOf(
            start,
            group.filter((row) => slot(row) === i),
          ),
        ),
        total: bucketOf(starts[0], group),
      }))
      .sort((a, b) => b.total.runs - a.total.runs || a.key.localeCompare(b.key));
  };
  return {
    window,
    from: new Date(from).toISOString(),
    to: new Date(end).toISOString(),
    bucket_ms: bucketMs,
    total: bucketOf(starts[0], inWindow),
    by_agent: seriesBy((row) => row.agent),
    by_key: seriesBy((row) => row.key_id ?? UNKNOWN_KEY),
    truncated,
  };
}

function bucketOf(start: string, rows: UsageRow[]): UsageBucket {
  const times = rows
    .filter((r) => r.total_ms !== null && r.status !== 'running')
    .map((r) => r.total_ms as number)
    .sort((a, b) => a - b);
  return {
    start,
    runs: rows.length,
    failed: rows.filter((r) => r.status === 'failed').length,
    prompt_tokens: sum(rows, (r) => r.prompt_tokens),
    cached_prompt_tokens: sum(rows, (r) => r.cached_prompt_tokens ?? 0),
    completion_tokens: sum(rows, (r) => r.completion_tokens),
    cost_usd: sum(rows, (r) => r.cost_usd ?? 0),
    avg_ms: times.length ? Math.round(times.reduce((a, b) => a + b, 0) / times.length) : null,
    p95_ms: times.length ? times[Math.min(times.length - 1, Math.ceil(times.length * 0.95) - 1)] : null,
  };
}

function sum(rows: UsageRow[], of: (row: UsageRow) => number): number {
  return rows.reduce((total, row) => total + of(row), 0);
}
