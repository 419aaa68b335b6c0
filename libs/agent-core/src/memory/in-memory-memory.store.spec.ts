import { describe, expect, it } from 'vitest';
import { InMemoryMemoryStore } from './in-memory-memory.store';
import type { MemorySegment } from './memory-store';
import { memoryTerms } from './memory-terms';
import { segmentRun } from './run-segments';

const at = new Date('2026-11-26T10:00:00Z');

function run(runId: string, principal: string, input: string, reply: string): MemorySegment[] {
  return segmentRun({
    runId,
    principal,
    sessionId: `s-${runId}`,
    agent: 'helper',
    input,
    trace: [],
    reply,
    at,
  });
}

describe('InMemoryMemoryStore', () => {
  it('ranks the scope’s segments sharing a word, and never shows another principal’s', async () => {
    const store = new InMemoryMemoryStore();
    await store.append(run('r1', 'ana', 'My locker code is 4711', 'Noted.'));
    await store.append(run('r2', 'ana', 'The weather is nice', 'Indeed.'));
    await store.append(run('r3', 'bo', 'My locker code is 9999', 'Noted.'));

    const found = await store.search({ principal: 'ana' }, memoryTerms('locker code?'), 5);

    expect(found.map((c) => c.content)).toEqual(['My locker code is 4711']);
    expect(found[0]).toMatchObject({
      session_id: 's-r1',
      agent: 'helper',
      anchor: { run_id: 'r1', iteration_index: 0, segment_index: 0, segment_type: 'user_message' },
    });
    expect(found[0].relevance).toBeGreaterThan(0);
    expect(await store.search({ principal: 'ana', agent: 'other' }, ['locker'], 5)).toEqual([]);
  });

  it('keeps the first segment stored at an anchor and expands it within its run', async () => {
    const store = new InMemoryMemoryStore();
    await store.append(run('r1', 'ana', 'Plan the trip', 'Trip planned.'));
    await store.append(run('r1', 'ana', 'changed', 'changed'));

    const expansion = await store.expand(
      { principal: 'ana' },
      { runId: 'r1', iterationIndex: 1, segmentIndex: 0 },
      2,
    );

    expect(expansion).toMatchObject({
      goal: 'Plan the trip',
      before: [{ content: 'Plan the trip' }],
      chunk: { content: 'Trip planned.' },
      after: [],
    });
    expect(
      await store.expand({ principal: 'bo' }, { runId: 'r1', iterationIndex: 1, segmentIndex: 0 }, 2),
    ).toBeUndefined();
  });
});
