import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type MemorySegment, memoryTerms, segmentRun } from '@app/agent-core';
import { SqliteMemoryStore } from './sqlite-memory.store';

const at = new Date('2026-11-26T10:00:00Z');

function run(
  runId: string,
  principal: string,
  input: string,
  reply: string,
  agent = 'helper',
): MemorySegment[] {
  return segmentRun({ runId, principal, sessionId: `s-${runId}`, agent, input, trace: [], reply, at });
}

const tempFile = () => join(mkdtempSync(join(tmpdir(), 'ac-agent-memory-')), 'memory.db');

describe('SqliteMemoryStore', () => {
  it('finds and ranks a principal’s segments across reopening the file, never another’s', async () => {
    const file = tempFile();
    const store = await SqliteMemoryStore.open(file);
    await store.append(run('r1', 'ana', 'My locker code is 4711', 'Noted, locker 4711.'));
    await store.append(run('r2', 'ana', 'Is the weather nice?', 'Sunny.'));
    await store.append(run('r3', 'bo', 'My locker code is 9999', 'Noted.'));
    store.close();

    const reopened = await SqliteMemoryStore.open(file);
    const found = await reopened.search({ principal: 'ana' }, memoryTerms('locker code'), 5);

    expect(found.map((c) => c.content)).toEqual(['My locker code is 4711', 'Noted, locker 4711.']);
    expect(found[0]).toMatchObject({
      session_id: 's-r1',
      agent: 'helper',
      anchor: {
        run_id: 'r1',
        iteration_index: 0,
        segment_index: 0,
        segment_type: 'user_message',
        timestamp: at.toISOString(),
      },
    });
    expect(found[0].relevance).toBeGreaterThan(found[1].relevance);
    expect(await reopened.search({ principal: 'ana', sessionId: 's-r2' }, ['locker'], 5)).toEqual([]);
    expect(await reopened.search({ principal: 'ana', agent: 'other' }, ['locker'], 5)).toEqual([]);
    reopened.close();
  });

  it('still finds an older segment with all the words behind many newer ones with one of them', async () => {
    const store = await SqliteMemoryStore.open(tempFile());
    await store.append(run('old', 'ana', 'The locker code is 4711', 'ok'));
    for (let i = 0; i < 150; i += 1) await store.append(run(`r${i}`, 'ana', `locker number ${i}`, 'ok'));

    const found = await store.search({ principal: 'ana' }, memoryTerms('locker code'), 3);

    expect(found[0].content).toBe('The locker code is 4711');
    store.close();
  });

  it('takes FTS5 syntax in a word as a plain word', async () => {
    const store = await SqliteMemoryStore.open(tempFile());
    await store.append(run('r1', 'ana', 'say "hello" OR NOT', 'ok'));

    expect(await store.search({ principal: 'ana' }, ['"hello', 'NOT', '*'], 5)).toHaveLength(1);
    store.close();
  });

  it('keeps the first segment at an anchor and expands it within its run and scope', async () => {
    const store = await SqliteMemoryStore.open(tempFile());
    await store.append(run('r1', 'ana', 'Plan the trip', 'Trip planned.'));
    await store.append(run('r1', 'ana', 'changed', 'changed'));
    const ref = { runId: 'r1', iterationIndex: 1, segmentIndex: 0 };

    expect(await store.expand({ principal: 'ana' }, ref, 2)).toMatchObject({
      goal: 'Plan the trip',
      before: [{ content: 'Plan the trip' }],
      chunk: { content: 'Trip planned.' },
      after: [],
    });
    expect(await store.expand({ principal: 'bo' }, ref, 2)).toBeUndefined();
    store.close();
  });
});
