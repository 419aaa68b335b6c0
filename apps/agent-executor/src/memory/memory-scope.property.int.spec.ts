// Property: whatever is stored and whatever is asked, a search or an expansion never returns a
// chunk outside its scope (another principal's, another session's, another agent's).
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MemoryScope, type MemorySegment, memoryTerms } from '@app/agent-core';
import { MEMORY_SEGMENT_TYPES, type MemoryChunk } from '@app/contracts';
import { connectMigrated, type Db, openSqlWriter, type SqlWriter } from '@app/persistence';
import { MIGRATED_DATABASES, REPO_ROOT } from '@app/testing';
import { MemorySegmentRepository } from './memory-segment.repository';

const WORDS = ['cat', 'dog', 'lisbon', 'rain', 'sun', 'or', 'and', 'not', 'near', 'café', '東京', 'x1'];
const PRINCIPALS = ['p0', 'p1', 'p2', 'p3', 'p4', 'p5'];
const AGENTS = ['a0', 'a1', 'a2'];

interface StoredRun {
  runId: string;
  principal: string;
  sessionId: string;
  agent: string;
}

const runArb = fc.record({
  principal: fc.constantFrom(...PRINCIPALS),
  session: fc.integer({ min: 0, max: 2 }),
  agent: fc.constantFrom(...AGENTS),
  segments: fc.array(fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 8 }), {
    minLength: 1,
    maxLength: 6,
  }),
});

/** A query as a caller might type it: words, operators and punctuation mixed. */
const queryArb = fc
  .array(fc.oneof(fc.constantFrom(...WORDS, 'OR', 'AND', '"', '*', '(', ')', '-', ':'), fc.string()), {
    minLength: 1,
    maxLength: 6,
  })
  .map((parts) => parts.join(' '));

interface Scoped {
  principal: string;
  narrow: 'principal' | 'session' | 'agent';
  session: number;
  agent: string;
}

const scopeArb: fc.Arbitrary<Scoped> = fc.record({
  principal: fc.constantFrom(...PRINCIPALS),
  narrow: fc.constantFrom('principal' as const, 'session' as const, 'agent' as const),
  session: fc.integer({ min: 0, max: 2 }),
  agent: fc.constantFrom(...AGENTS),
});

describe.each(MIGRATED_DATABASES)('memory scope isolation on $name', ({ create }) => {
  let db: Db;
  let writer: SqlWriter;
  let drop: () => Promise<void>;
  let memory: MemorySegmentRepository;
  const runs: StoredRun[] = [];

  beforeAll(async () => {
    const database = await create();
    drop = database.drop;
    db = (await connectMigrated(database.url, REPO_ROOT)).db;
    writer = openSqlWriter(database.url, db);
    memory = new MemorySegmentRepository(db, writer, {
      database: { url: database.url, dev_postgres_url: '' },
    });
    const generated = fc.sample(runArb, { numRuns: 150, seed: 20261126 });
    const segments: MemorySegment[] = [];
    generated.forEach((g, i) => {
      const run = {
        runId: `run_${i}`,
        principal: g.principal,
        sessionId: `ses_${g.principal}_${g.session}`,
        agent: g.agent,
      };
      runs.push(run);
      g.segments.forEach((words, s) =>
        segments.push({
          ...run,
          iterationIndex: s,
          segmentIndex: 0,
          type: MEMORY_SEGMENT_TYPES[s % MEMORY_SEGMENT_TYPES.length],
          content: words.join(' '),
          at: new Date(),
        }),
      );
    });
    await db.run.createMany({
      data: runs.map((r) => ({ id: r.runId, owner: r.principal, agent: r.agent, input: '' })),
    });
    await memory.append(segments);
  });
  afterAll(async () => {
    await writer?.close();
    await db?.$disconnect();
    await drop?.();
  });

  const scopeOf = (s: Scoped): MemoryScope =>
    s.narrow === 'session'
      ? { principal: s.principal, sessionId: `ses_${s.principal}_${s.session}` }
      : s.narrow === 'agent'
        ? { principal: s.principal, agent: s.agent }
        : { principal: s.principal };

  const within = (scope: MemoryScope, chunk: MemoryChunk) => {
    const run = runs.find((r) => r.runId === chunk.anchor.run_id);
    return (
      run !== undefined &&
      run.principal === scope.principal &&
      chunk.session_id === run.sessionId &&
      (!scope.sessionId || run.sessionId === scope.sessionId) &&
      (!scope.agent || run.agent === scope.agent)
    );
  };

  it('a search returns only chunks of its scope, and finds what its scope holds', async () => {
    let found = 0;
    await fc.assert(
      fc.asyncProperty(scopeArb, queryArb, async (s, query) => {
        const scope = scopeOf(s);
        const chunks = await memory.search(scope, memoryTerms(query), 20);
        found += chunks.length;
        for (const chunk of chunks) expect(within(scope, chunk)).toBe(true);
      }),
      { numRuns: 150, seed: 7 },
    );
    expect(found).toBeGreaterThan(0);
  });

  it('an expansion of any anchor is refused outside its scope and stays in its run', async () => {
    await fc.assert(
      fc.asyncProperty(scopeArb, fc.integer({ min: 0, max: runs.length - 1 }), async (s, r) => {
        const scope = scopeOf(s);
        const run = runs[r];
        const expansion = await memory.expand(
          scope,
          { runId: run.runId, iterationIndex: 0, segmentIndex: 0 },
          3,
        );
        const visible =
          run.principal === scope.principal &&
          (!scope.sessionId || run.sessionId === scope.sessionId) &&
          (!scope.agent || run.agent === scope.agent);
        expect(expansion !== undefined).toBe(visible);
        for (const chunk of expansion ? [expansion.chunk, ...expansion.before, ...expansion.after] : [])
          expect(chunk.anchor.run_id).toBe(run.runId);
      }),
      { numRuns: 100, seed: 11 },
    );
  });
});
