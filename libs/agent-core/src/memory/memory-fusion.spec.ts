import { describe, expect, it } from 'vitest';
import { fuseByReciprocalRank, RRF_K } from './memory-fusion';

const id = (item: string) => item;

describe('fuseByReciprocalRank', () => {
  it('scores an item 1 / (k + rank) in each list it appears in', () => {
    const fused = fuseByReciprocalRank([['a', 'b'], ['b']], id);
    expect(fused).toEqual([
      { item: 'b', score: 1 / (RRF_K + 2) + 1 / (RRF_K + 1) },
      { item: 'a', score: 1 / (RRF_K + 1) },
    ]);
  });

  it('ranks an item both rankers found above one only a single ranker put first', () => {
    const fused = fuseByReciprocalRank(
      [
        ['text-only', 'both'],
        ['vector-only', 'both'],
      ],
      id,
    );
    expect(fused.map((f) => f.item)).toEqual(['both', 'text-only', 'vector-only']);
  });

  it('keeps items found by one list only, and the first copy of a duplicate', () => {
    const a1 = { id: 'a', from: 'text' };
    const a2 = { id: 'a', from: 'vector' };
    const fused = fuseByReciprocalRank([[a1], [a2, { id: 'c', from: 'vector' }]], (x) => x.id);
    expect(fused.map((f) => f.item)).toEqual([a1, { id: 'c', from: 'vector' }]);
  });

  it('is stable on ties and empty for no lists', () => {
    expect(fuseByReciprocalRank([['x'], ['y']], id).map((f) => f.item)).toEqual(['x', 'y']);
    expect(fuseByReciprocalRank([], id)).toEqual([]);
  });

  it('lets a smaller k favour the first places more', () => {
    const [first, second] = fuseByReciprocalRank([['a', 'b']], id, 1);
    expect(first.score / second.score).toBeCloseTo(1.5);
  });
});
