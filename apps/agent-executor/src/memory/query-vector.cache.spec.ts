import { describe, expect, it, vi } from 'vitest';
import { QueryVectorCache } from './query-vector.cache';

describe('QueryVectorCache', () => {
  it('embeds a repeated query once', async () => {
    const cache = new QueryVectorCache(2);
    const embed = vi.fn(async (q: string) => [q.length]);
    expect(await cache.get('engine repair', embed)).toEqual([13]);
    expect(await cache.get('engine repair', embed)).toEqual([13]);
    expect(embed).toHaveBeenCalledTimes(1);
  });

  it('shares a query still being embedded', async () => {
    const cache = new QueryVectorCache(2);
    const embed = vi.fn(async () => [1]);
    await Promise.all([cache.get('q', embed), cache.get('q', embed)]);
    expect(embed).toHaveBeenCalledTimes(1);
  });

  it('drops the least recently used query past its capacity', async () => {
    const cache = new QueryVectorCache(2);
    const embed = vi.fn(async (q: string) => [q.length]);
    await cache.get('a', embed);
    await cache.get('bb', embed);
    await cache.get('a', embed); // 'a' is now the most recent
    await cache.get('ccc', embed); // drops 'bb'
    expect(cache.size).toBe(2);
    await cache.get('a', embed);
    expect(embed).toHaveBeenCalledTimes(3);
    await cache.get('bb', embed);
    expect(embed).toHaveBeenCalledTimes(4);
  });

  it('does not keep a failed embedding', async () => {
    const cache = new QueryVectorCache(2);
    const failing = vi.fn(async () => {
      throw new Error('down');
    });
    await expect(cache.get('q', failing)).rejects.toThrow('down');
    const embed = vi.fn(async () => [1]);
    expect(await cache.get('q', embed)).toEqual([1]);
    expect(embed).toHaveBeenCalledTimes(1);
  });
});
