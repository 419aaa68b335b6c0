// Memory search by meaning on both real databases, with the scripted LLM's embeddings: SQLite keeps
// vectors in sqlite-vec; this PostgreSQL has no pgvector, so it must fall back to full text alone.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type FinishedRun, type MemoryScope, memoryTerms, segmentRun } from '@app/agent-core';
import type { PlatformConfig } from '@app/config';
import { type Logger, Metrics } from '@app/observability';
import { connectMigrated, type Db, openSqlWriter, sql, type SqlWriter } from '@app/persistence';
import { MIGRATED_DATABASES, REPO_ROOT, type ScriptedLlm, startScriptedLlm } from '@app/testing';
import { EmbeddingsClient } from './embeddings.client';
import { MemoryIndexService } from './memory-index.service';
import { MemorySegmentRepository } from '../store/memory-segment.repository';
import { MemoryVectorRepository } from '../store/memory-vector.repository';

const DIMENSIONS = 64;

const counted = async (status: string) =>
  (await Metrics.memoryEmbeddings().get()).values.find((v) => v.labels.status === status)?.value ?? 0;

describe.each(MIGRATED_DATABASES)('memory search by meaning on $name', ({ name, create }) => {
  const vectorsHeld = name === 'SQLite';
  let db: Db;
  let writer: SqlWriter;
  let drop: () => Promise<void>;
  let llm: ScriptedLlm;
  let url: string;
  const warn = vi.fn();
  const logger = { warn } as unknown as Logger;

  function index(baseUrl: string): MemoryIndexService {
    const config = {
      database: { url, dev_postgres_url: '' },
      memory: {
        embeddings: { base_url: baseUrl, model: 'emb', dimensions: DIMENSIONS, timeout: 2_000 },
      },
    } as Pick<PlatformConfig, 'database' | 'memory'>;
    const vectors = new MemoryVectorRepository(writer, config, logger);
    booted.push(vectors);
    return new MemoryIndexService(
      new MemorySegmentRepository(db, writer, config),
      vectors,
      new EmbeddingsClient(config),
      logger,
    );
  }
  let memory: MemoryIndexService;
  /** An embeddings endpoint nothing listens on. */
  let broken: MemoryIndexService;
  let bootWarnings: string[] = [];
  const booted: MemoryVectorRepository[] = [];

  async function archive(
    into: MemoryIndexService,
    run: Partial<FinishedRun> & Pick<FinishedRun, 'runId' | 'input'>,
  ) {
    const finished: FinishedRun = {
      principal: 'alice',
      sessionId: 'ses_a1',
      agent: 'helper',
      trace: [],
      reply: 'Noted.',
      at: new Date('2026-11-26T10:00:00Z'),
      ...run,
    };
    await db.run.create({
      data: { id: finished.runId, owner: finished.principal, agent: finished.agent, input: finished.input },
    });
    await into.append(segmentRun(finished));
    await into.embedRun(finished.runId);
  }
  const search = (scope: MemoryScope, query: string, limit = 5) =>
    memory.search(scope, memoryTerms(query), limit);

  beforeAll(async () => {
    llm = await startScriptedLlm();
    const database = await create();
    url = database.url;
    drop = database.drop;
    db = (await connectMigrated(database.url, REPO_ROOT)).db;
    writer = openSqlWriter(database.url, db);
    memory = index(llm.url);
    broken = index('http://127.0.0.1:9/v1');
    await Promise.all(booted.map((vectors) => vectors.onModuleInit()));
    bootWarnings = warn.mock.calls.map(([message]) => String(message));
    await archive(memory, { runId: 'run_gearbox', input: 'The mechanic was repairing my gearbox' });
    await archive(memory, { runId: 'run_cake', input: 'Bake a lemon cake for Sunday' });
    await archive(memory, { runId: 'run_taxes', input: 'File the quarterly taxes before Friday' });
    await archive(memory, {
      runId: 'run_bob_gearbox',
      principal: 'bob',
      sessionId: 'ses_b1',
      input: 'Someone is repairing gearboxes for bob',
    });
    await archive(memory, {
      runId: 'run_other_session',
      sessionId: 'ses_a2',
      input: 'Repairing the bicycle gears',
    });
  });
  afterAll(async () => {
    await llm?.close();
    await writer?.close();
    await db?.$disconnect();
    await drop?.();
  });

  it(`${vectorsHeld ? 'finds' : 'cannot find'} a segment that shares no word with the query, by meaning`, async () => {
    // 'repairs' is no word of any segment: full text finds nothing, the vectors find 'repairing'.
    const found = await search({ principal: 'alice', sessionId: 'ses_a1' }, 'repairs');
    if (vectorsHeld) expect(found[0]?.content).toBe('The mechanic was repairing my gearbox');
    else expect(found).toEqual([]);
  });

  it('ranks a segment both rankers find first', async () => {
    const [best] = await search({ principal: 'alice' }, 'gearbox repair');
    expect(best.content).toBe('The mechanic was repairing my gearbox');
  });

  it('never returns another principal’s segment, nor one outside the session asked for', async () => {
    const alice = await search({ principal: 'alice', sessionId: 'ses_a1' }, 'repairing gearboxes', 20);
    expect(alice.length).toBeGreaterThan(0);
    expect(alice.every((c) => c.session_id === 'ses_a1')).toBe(true);
    expect(alice.map((c) => c.content).join(' ')).not.toMatch(/bob|bicycle/);
    const bob = await search({ principal: 'bob' }, 'mechanic cake taxes repairing', 20);
    expect(bob.length).toBeGreaterThan(0);
    expect(bob.every((c) => c.anchor.run_id === 'run_bob_gearbox')).toBe(true);
  });

  it('embeds a run’s segments once, in one batch', async () => {
    llm.clearRequests();
    await archive(memory, { runId: 'run_once', input: 'Water the orchids weekly' });
    await memory.embedRun('run_once');
    const calls = llm.requests().filter((r) => r.path.endsWith('/embeddings'));
    expect(calls).toHaveLength(vectorsHeld ? 1 : 0);
    if (vectorsHeld) expect((calls[0].body as { input: string[] }).input).toHaveLength(2);
  });

  it('costs no embedding call for a repeated query', async () => {
    await search({ principal: 'alice' }, 'orchids schedule');
    llm.clearRequests();
    await search({ principal: 'alice' }, 'orchids schedule');
    expect(llm.requests()).toEqual([]);
  });

  it('keeps searching by full text when the embeddings endpoint fails', async () => {
    const failedBefore = await counted('failed');
    const queryFailedBefore = await counted('query_failed');
    await archive(broken, { runId: 'run_broken', input: 'Renew the passport in March' });
    const found = await broken.search({ principal: 'alice' }, memoryTerms('passport'), 5);
    expect(found.map((c) => c.content)).toEqual(['Renew the passport in March']);
    if (vectorsHeld) {
      expect((await counted('failed')) - failedBefore).toBe(2);
      expect((await counted('query_failed')) - queryFailedBefore).toBe(1);
      // Embedded later, once the endpoint answers again.
      await memory.embedRun('run_broken');
      expect((await search({ principal: 'alice' }, 'passports'))[0]?.content).toBe(
        'Renew the passport in March',
      );
    }
  });

  it('forgets a run’s vectors with its segments', async () => {
    await memory.forget('alice', { runId: 'run_gearbox' });
    const found = await search({ principal: 'alice', sessionId: 'ses_a1' }, 'repairs');
    expect(found.map((c) => c.anchor.run_id)).not.toContain('run_gearbox');
  });

  // Skipped where the database holds no vectors (PostgreSQL without pgvector): nothing to drop.
  it.runIf(vectorsHeld)(
    `drops the vectors of a deleted run at the next boot${vectorsHeld ? '' : ' (skipped: no vector table on this database)'}`,
    async () => {
      await db.run.delete({ where: { id: 'run_cake' } }); // its segments go by the foreign key
      const orphans = () =>
        writer.query<{ n: number }>(
          sql`SELECT COUNT(*) AS n FROM "MemorySegmentVec" WHERE rowid NOT IN (SELECT "id" FROM "MemorySegment")`,
        );
      expect((await orphans())[0].n).toBe(2);
      index(llm.url);
      await booted.at(-1)!.onModuleInit();
      expect((await orphans())[0].n).toBe(0);
    },
  );

  it(`${vectorsHeld ? 'holds' : 'says once at boot that it cannot hold'} vectors`, () => {
    const said = bootWarnings.filter((message) => message.includes('full-text only'));
    expect(said).toHaveLength(vectorsHeld ? 0 : 2); // once for each of the two indexes built here
  });
});
