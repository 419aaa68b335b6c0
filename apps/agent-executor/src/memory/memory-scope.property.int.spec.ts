// Property: whatever is stored and whatever is asked, a search or an expansion never returns a
// chunk outside its scope (another principal's, another session's, another agent's).
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MemoryScope, type MemorySegment, memoryTerms } from '@app/agent-core';
import { MEMORY_SEGMENT_TYPES, type MemoryChunk } from '@app/contracts';
import { connectMigrated, type Db, openSqlWriter, type SqlWriter } from '@app/persistence';
import type { PlatformConfig } from '@app/config';
import type { Logger } from '@app/observability';
import { MIGRATED_DATABASES, REPO_ROOT, type ScriptedLlm, startScriptedLlm } from '@app/testing';
import { EmbeddingsClient } from './embeddings.client';
import { MemoryIndexService } from './memory-index.service';
import { MemorySegmentRepository } from '../store/memory-segment.repository';
import { MemoryVectorRepository } from '../store/memory-vector.repository';

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
  /** The same memory searched by words and meaning (vectors on SQLite; full text alone elsewhere). */
  let hybrid: MemoryIndexService;
  let vectors: MemoryVectorRepository;
  let embeddings: EmbeddingsClient;
  let llm: ScriptedLlm;
  const runs: StoredRun[] = [];

  beforeAll(async () => {
    const database = await create();
    drop = database.drop;
    db = (await connectMigrated(database.url, REPO_ROOT)).db;
    writer = openSqlWriter(database.url, db);
    memory = new MemorySegmentRepository(db, writer, {
      database: { url: database.url, dev_postgres_url: '' },
    });
    llm = await startScriptedLlm();
    const config = {
      database: { url: database.url, dev_postgres_url: '' },
      memory: { embeddings: { base_url: llm.url, model: 'emb', dimensions: 32, timeout: 5_000 } },
    } as Pick<PlatformConfig, 'database' | 'memory'>;
    const logger = { warn: () => undefined } as unknown as Logger;
    vectors = new MemoryVectorRepository(writer, config, logger);
    embeddings = new EmbeddingsClient(config);
    hybrid = new MemoryIndexService(memory, vectors, embeddings, logger);
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
    for (const run of runs) await hybrid.embedRun(run.runId);
  });
  afterAll(async () => {
    await llm?.close();
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

  it('a search by words and meaning returns only chunks of its scope, and so does the vector search itself', async () => {
    const owners = new Map(
      (
        await db.memorySegment.findMany({
          select: { id: true, principal: true, session_id: true, agent: true },
        })
      ).map((row) => [row.id, row]),
    );
    const held = await vectors.available();
    let found = 0;
    await fc.assert(
      fc.asyncProperty(scopeArb, queryArb, async (s, query) => {
        const scope = scopeOf(s);
        const terms = memoryTerms(query);
        const chunks = await hybrid.search(scope, terms, 20);
        for (const chunk of chunks) expect(within(scope, chunk)).toBe(true);
        if (!held || terms.length === 0) return;
        const ids = await vectors.nearest(scope, await embeddings.embedQuery(terms.join(' ')), 50);
        found += ids.length;
        for (const id of ids) {
          const owner = owners.get(id);
          expect(owner?.principal).toBe(scope.principal);
          if (scope.sessionId) expect(owner?.session_id).toBe(scope.sessionId);
          if (scope.agent) expect(owner?.agent).toBe(scope.agent);
        }
      }),
      { numRuns: 100, seed: 13 },
    );
    if (held) expect(found).toBeGreaterThan(0);
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
