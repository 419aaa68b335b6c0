import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { StoredTurnMessage } from '@app/agent-core';
import { SqliteSessionStore } from './sqlite-session.store';

const message = (role: 'user' | 'assistant', content: string): StoredTurnMessage => ({
  role,
  content,
  tokens: 1,
});

describe('SqliteSessionStore', () => {
  it('keeps each session’s messages in order across appends and reopening the file', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'ac-agent-sessions-')), 'sessions.db');
    const store = await SqliteSessionStore.open(file);
    await store.append('a', [message('user', 'hi'), message('assistant', 'hello')]);
    await store.append('b', [message('user', 'other')]);
    await store.append('a', [message('user', 'again'), message('assistant', 'yes')]);
    store.close();

    const reopened = await SqliteSessionStore.open(file);
    expect((await reopened.load('a')).messages.map((m) => m.content)).toEqual([
      'hi',
      'hello',
      'again',
      'yes',
    ]);
    expect(await reopened.load('b')).toEqual({ summary: null, messages: [message('user', 'other')] });
    expect(await reopened.load('none')).toEqual({ summary: null, messages: [] });
    reopened.close();
  });

  it('replaces the oldest messages with the summary that folds them', async () => {
    const store = await SqliteSessionStore.open(':memory:');
    await store.append('a', [message('user', 'one'), message('assistant', 'two'), message('user', 'three')]);
    const { messages } = await store.load('a');
    await store.saveSummary('a', 'one and two', messages.slice(0, 2));
    expect(await store.load('a')).toEqual({ summary: 'one and two', messages: [message('user', 'three')] });
    store.close();
  });
});
