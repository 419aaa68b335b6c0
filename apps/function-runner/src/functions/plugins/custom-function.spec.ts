import { describe, expect, it } from 'vitest';
import { describeFunction } from '@app/functions';
import { customFunction } from './custom-function';

const run = () => Promise.resolve({});
const declared = (extra: Record<string, unknown> = {}) => ({
  name: 'lookup',
  description: 'looks up',
  ...extra,
});

describe('customFunction', () => {
  it('takes a plugin’s own idempotent declaration, and is not safe to send again without one', () => {
    const flag = (extra?: Record<string, unknown>) =>
      describeFunction(customFunction(declared(extra), '/f/lookup.js', run), 'custom', 1_000).idempotent;
    expect(flag()).toBe(false);
    expect(flag({ idempotent: true })).toBe(true);
    expect(() => flag({ idempotent: 'yes' })).toThrow('lookup.js: idempotent must be true or false');
  });
});
