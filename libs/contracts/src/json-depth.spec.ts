import { describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH, nestedDeeperThan } from './json-depth';

/** An array nesting `depth` levels: [[…[]…]]. */
const nested = (depth: number): unknown => {
  let value: unknown = [];
  for (let level = 1; level < depth; level++) value = level % 2 ? [value] : { inner: value };
  return value;
};

describe('nestedDeeperThan', () => {
  it('measures arrays and objects alike, at any place of the value', () => {
    expect(nestedDeeperThan(nested(MAX_JSON_DEPTH))).toBe(false);
    expect(nestedDeeperThan(nested(MAX_JSON_DEPTH + 1))).toBe(true);
    expect(nestedDeeperThan({ shallow: 1, deep: [1, nested(MAX_JSON_DEPTH)] })).toBe(true);
    expect(nestedDeeperThan({ a: { b: { c: 1 } } }, 3)).toBe(false);
    expect(nestedDeeperThan({ a: { b: { c: {} } } }, 3)).toBe(true);
  });

  it('walks without recursion: 100,000 levels neither overflow nor take long', () => {
    expect(nestedDeeperThan(nested(100_000))).toBe(true);
  });

  it('finds nothing nested in a scalar or null', () => {
    for (const value of [null, undefined, 1, 'text', true]) expect(nestedDeeperThan(value)).toBe(false);
  });
});
