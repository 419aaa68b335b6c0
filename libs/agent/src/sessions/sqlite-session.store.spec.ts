import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SqliteSessionStore } from './sqlite-session.store';

describe('SqliteSessionStore', () => {
  it('keeps each session’s messages in order across appends and reopening the file', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'ac-agent-sessions-')), 'sessions.db');
    const store = await SqliteSessionStore.open<{ role: string; content: string }>(file);
    await store.append('a', [{ role: 'user', content: 'hi' }]);
    await store.append('b', [{ role: 'user', content: 'other' }]);
    await store.append('a', [{ role: 'assistant', content: 'hello' }]);
    store.close();

    const reopened = await SqliteSessionStore.open<{ role: string; content: string }>(file);
    expect(await reopened.load('a')).toEqual([
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: 'hello' },
    ]);
    expect(await reopened.load('b')).toHaveLength(1);
    expect(await reopened.load('none')).toEqual([]);
    reopened.close();
  });
});
