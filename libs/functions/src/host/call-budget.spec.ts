import { describe, expect, it } from 'vitest';
import { callBudgetMs, traceIdOf } from './call-budget';

describe('callBudgetMs', () => {
  const now = 1_000_000;

  it('uses the function’s own timeout when the caller sets none', () => {
    expect(callBudgetMs({ params: {} }, 30_000, now)).toBe(30_000);
  });

  it('never runs past the caller’s deadline, answering a little before it', () => {
    expect(callBudgetMs({ params: {}, timeout_ms: 60_000, deadline_ms: now + 2_000 }, 30_000, now)).toBe(
      1_950,
    );
    expect(callBudgetMs({ params: {}, timeout_ms: 100, deadline_ms: now + 2_000 }, 30_000, now)).toBe(100);
  });

  it('refuses a call that arrives after its deadline', () => {
    expect(() => callBudgetMs({ params: {}, deadline_ms: now - 1 }, 30_000, now)).toThrow(
      /after its deadline/,
    );
  });
});

describe('traceIdOf', () => {
  it('reads the trace id of a W3C traceparent and ignores anything else', () => {
    expect(traceIdOf('00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01')).toBe(
      '4bf92f3577b34da6a3ce929d0e0e4736',
    );
    expect(traceIdOf('garbage')).toBeUndefined();
  });
});
