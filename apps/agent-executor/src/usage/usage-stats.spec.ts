import { describe, expect, it } from 'vitest';
import type { UsageRow } from '../store/run-usage.repository';
import { UNKNOWN_KEY, usageStats } from './usage-stats';

const NOW = new Date('2026-12-04T15:20:00Z');
const row = (minutesAgo: number, over: Partial<UsageRow> = {}): UsageRow => ({
  created_at: new Date(NOW.getTime() - minutesAgo * 60_000),
  agent: 'default',
  key_id: 'key_a',
  status: 'completed',
  prompt_tokens: 100,
  completion_tokens: 10,
  cost_usd: 0.01,
  total_ms: 1000,
  ...over,
});

describe('usage over a window', () => {
  it('counts the day by the hour, aligned to the hour, oldest first', () => {
    const view = usageStats([row(5), row(70), row(60 * 30)], 'day', NOW, false);
    expect(view.to).toBe('2026-12-04T16:00:00.000Z');
    expect(view.from).toBe('2026-12-03T16:00:00.000Z');
    const [agent] = view.by_agent;
    expect(agent.buckets).toHaveLength(24);
    expect(agent.buckets.at(-1)).toMatchObject({ start: '2026-12-04T15:00:00.000Z', runs: 1 });
    expect(agent.buckets.at(-2)).toMatchObject({ start: '2026-12-04T14:00:00.000Z', runs: 1 });
    // 30 hours ago is outside the day
    expect(view.total.runs).toBe(2);
  });

  it('splits by agent and by key, the busiest first, an unrecorded key as unknown', () => {
    const rows = [row(1), row(2, { agent: 'helper' }), row(3, { agent: 'helper', key_id: null })];
    const view = usageStats(rows, 'week', NOW, false);
    expect(view.by_agent.map((s) => [s.key, s.total.runs])).toEqual([
      ['helper', 2],
      ['default', 1],
    ]);
    expect(view.by_key.map((s) => [s.key, s.total.runs])).toEqual([
      ['key_a', 2],
      [UNKNOWN_KEY, 1],
    ]);
    expect(view.by_key[0].buckets).toHaveLength(28);
  });

  it('adds tokens and cost, counts failures, and times only the runs that ended', () => {
    const rows = [
      row(1, { total_ms: 100 }),
      row(2, { total_ms: 300, status: 'failed', cost_usd: null }),
      row(3, { total_ms: null, status: 'running' }),
      ...Array.from({ length: 17 }, (_, i) => row(4 + i, { total_ms: 200 })),
    ];
    const { total } = usageStats(rows, 'day', NOW, false);
    expect(total).toMatchObject({ runs: 20, failed: 1, prompt_tokens: 2000, completion_tokens: 200 });
    expect(total.cost_usd).toBeCloseTo(0.19);
    expect(total.avg_ms).toBe(Math.round((100 + 300 + 17 * 200) / 19));
    expect(total.p95_ms).toBe(300);
  });

  it('says when it counted only the newest runs of the window', () => {
    expect(usageStats([], 'day', NOW, true)).toMatchObject({
      truncated: true,
      by_agent: [],
      total: { runs: 0 },
    });
  });
});
