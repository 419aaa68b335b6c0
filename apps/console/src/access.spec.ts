import { describe, expect, it } from 'vitest';
import { keyStore, may, parseRoute, visibleViews } from './access';

/** A Storage with nothing behind it but a Map (the browser's sessionStorage in the page). */
class MapStorage implements Storage {
  private readonly items = new Map<string, string>();
  get length() {
    return this.items.size;
  }
  clear() {
    this.items.clear();
  }
  getItem(key: string) {
    return this.items.get(key) ?? null;
  }
  key(index: number) {
    return [...this.items.keys()][index] ?? null;
  }
  removeItem(key: string) {
    this.items.delete(key);
  }
  setItem(key: string, value: string) {
    this.items.set(key, value);
  }
}

describe('which views a key sees', () => {
  it('follows the platform’s scope rule: admin includes every scope', () => {
    expect(may(['admin'], 'tasks:write')).toBe(true);
    expect(may(['chat'], 'admin')).toBe(false);
    expect(may([], undefined)).toBe(true);
  });

  it('shows a chat-only key Chat, Sessions, Runs, Agents, Usage and Health, and an admin every view', () => {
    expect(visibleViews(['chat']).map((v) => v.label)).toEqual([
      'Chat',
      'Sessions',
      'Runs',
      'Agents',
      'Usage',
      'Health',
    ]);
    expect(visibleViews(['functions:read']).map((v) => v.label)).toEqual(['Functions', 'Health']);
    expect(visibleViews(['admin'])).toHaveLength(9);
  });

  it('reads the route from the hash, falling back to the first allowed view for one the key may not use', () => {
    expect(parseRoute('#/runs/run_1%2Fx', ['chat'])).toEqual({ view: 'runs', arg: 'run_1/x' });
    expect(parseRoute('#/keys', ['chat'])).toEqual({ view: 'chat' });
    expect(parseRoute('', ['tasks:read'])).toEqual({ view: 'tasks' });
    expect(parseRoute('#/nowhere/x', [])).toEqual({ view: 'health' });
  });

  it('keeps the key in the storage it is given, and forgets it', () => {
    const storage = new MapStorage();
    keyStore.set('ac_k', storage);
    expect(keyStore.get(storage)).toBe('ac_k');
    keyStore.clear(storage);
    expect(storage.length).toBe(0);
  });
});
