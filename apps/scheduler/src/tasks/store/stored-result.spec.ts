import { describe, expect, it } from 'vitest';
import { parseStored, storedResult } from './stored-result';

describe('a stored result', () => {
  it('reads back as the value that was stored', () => {
    const value = { message: 'sent', to: ['alice'], count: 2 };
    expect(parseStored(storedResult(value))).toEqual(value);
  });

  it('is null when the target returned nothing', () => {
    expect(storedResult(undefined)).toBeNull();
    expect(parseStored(null)).toBeNull();
  });

  it('is cut to a preview that says so when it is too long', () => {
    const stored = storedResult({ text: 'x'.repeat(100_000) })!;
    expect(stored.length).toBeLessThan(64_000);
    expect(parseStored(stored)).toMatchObject({ truncated: true });
  });

  it('reads text that is not JSON as the text itself', () => {
    expect(parseStored('plain words')).toBe('plain words');
  });
});
