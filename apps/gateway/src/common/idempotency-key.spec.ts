import { describe, expect, it } from 'vitest';
import { idempotencyKeyOf } from './idempotency-key';

describe('idempotencyKeyOf', () => {
  it('takes 1 to 255 visible ASCII characters, and no header as no key', () => {
    expect(idempotencyKeyOf(undefined)).toBeUndefined();
    expect(idempotencyKeyOf('a1b2-c3d4_e5')).toBe('a1b2-c3d4_e5');
    for (const bad of ['', 'has space', 'x'.repeat(256), 'ключ'])
      expect(() => idempotencyKeyOf(bad)).toThrow(/Idempotency-Key/);
  });
});
