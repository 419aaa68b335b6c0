import { describe, expect, it } from 'vitest';
import type { MisfirePolicy } from '@app/contracts';
import { type OverdueDelay, overdueCutoff, overdueFate } from './misfire';

const NOW = new Date('2026-11-22T08:00:00Z');

describe('misfire', () => {
  const overdue = (lateMs: number, policy: MisfirePolicy): OverdueDelay => ({
    run_at: new Date(NOW.getTime() - lateMs),
    misfire_policy: policy,
    catchup_window_ms: 60_000,
  });

  it('calls an overdue delay missed, unless it runs once within its catch-up window', () => {
    expect(overdueFate(overdue(1_000, 'missed'), NOW)).toBe('missed');
    expect(overdueFate(overdue(60_000, 'run_once'), NOW)).toBe('run');
    expect(overdueFate(overdue(60_001, 'run_once'), NOW)).toBe('missed');
  });

  it('leaves the grace to live peers only', () => {
    expect(overdueCutoff(NOW, false, 5_000)).toEqual(NOW);
    expect(overdueCutoff(NOW, true, 5_000)).toEqual(new Date(NOW.getTime() - 5_000));
  });
});
