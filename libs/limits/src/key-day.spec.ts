import { describe, expect, it } from 'vitest';
import { spendKeyOf, tokensKeyOf, utcDay } from './key-day';

describe('utcDay', () => {
  it('names the UTC day of each instant, across midnight and back', () => {
    const midnight = Date.UTC(2026, 11, 6);
    expect(utcDay(midnight - 1)).toBe('2026-12-05');
    expect(utcDay(midnight)).toBe('2026-12-06');
    expect(utcDay(midnight - 1)).toBe('2026-12-05');
    expect(tokensKeyOf('k1', midnight + 5)).toBe('ac:tokens:k1:2026-12-06');
    expect(spendKeyOf('k1', midnight - 5)).toBe('ac:cost:k1:2026-12-05');
  });

  it('refuses an instant that is no date, as Date does', () => {
    expect(() => utcDay(Number.NaN)).toThrow(RangeError);
  });
});
