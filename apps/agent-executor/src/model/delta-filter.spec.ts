import { describe, expect, it } from 'vitest';
import { CallFreeDeltas } from './delta-filter';

function stream(pieces: string[]): string[] {
  const out: string[] = [];
  const filter = new CallFreeDeltas((text) => out.push(text));
  pieces.forEach((piece) => filter.push(piece));
  filter.flush();
  return out;
}

describe('CallFreeDeltas', () => {
  it('passes prose through and stops at a call split across deltas', () => {
    expect(stream(['Let me ', 'check.<c', 'all name="x">', 'more'])).toEqual(['Let me ', 'check.']);
  });

  it('releases held-back text that did not become a call', () => {
    expect(stream(['a <ca', 't> b'])).toEqual(['a ', '<cat> b']);
    expect(stream(['ends with <c'])).toEqual(['ends with ', '<c']);
  });
});
