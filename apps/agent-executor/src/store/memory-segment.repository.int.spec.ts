// Long-term memory on both real databases: finished runs archived as segments, found by full
// text within a scope, expanded around an anchor, forgotten.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FinishedRun, type MemoryScope, memoryTerms, segmentRun } from '@app/agent-core';
import type { TraceStep } from '@app/contracts';
import { connectMigrated, type Db, openSqlWriter, type SqlWriter } from '@app/persistence';
import { MIGRATED_DATABASES, REPO_ROOT } from '@app/testing';
import { MemorySegmentRepository } from './memory-segment.repository';

const weatherTrace: TraceStep[] = [
  {
    step: 1,
    kind: 'action',
    thought: 'I should look up the weather in Lisbon',
    action: { tool: 'get_weather', args: { city: 'Lisbon' } },
    observation: 'sunny, 24 degrees',
    elapsed_ms: 3,
  },
  { step: 2, kind: 'final', elapsed_ms: 1 },
];

describe.each(MIGRATED_DATABASES)('memory segments on $name', ({ create }) => {
  let db: Db;
  let writer: SqlWriter;
  let drop: () => Promise<void>;
  let memory: MemorySegmentRepository;

  beforeAll(async () => {
    const database = await create();
    drop = database.drop;
    db = (await connectMigrated(database.url, REPO_ROOT)).db;
    writer = openSqlWriter(database.url, db);
    memory = new MemorySegmentRepository(db, writer, {
      database: { url: database.url, dev_postgres_url: '' },
    });
  });
  afterAll(async () => {
    await writer?.close();
    await db?.$disconnect();
    await drop?.();
  });

  async function archive(run: Partial<FinishedRun> & Pick<FinishedRun, 'runId' | 'input'>) {
    const finished: FinishedRun = {
      principal: 'alice',
      sessionId: 'ses_a1',
      agent: 'helper',
      trace: [],
      reply: '',
      at: new Date('2026-11-26T10:00:00Z'),
      ...run,
    };
    await db.run.create({
      data: { id: finished.runId, owner: finished.principal, agent: finished.agent, input: finished.input },
    });
    await memory.append(segmentRun(finished));
  }
  const search = (scope: MemoryScope, query: string, limit = 10) =>
    memory.search(scope, memoryTerms(query), limit);

  beforeAll(async () => {
    await archive({
      runId: 'run_weather',
      input: 'What is the weather in Lisbon?',
      trace: weatherTrace,
      reply: 'It is sunny in Lisbon, 24 degrees.',
    });
    await archive({ runId: 'run_cat', input: 'My cat is called Miso', reply: 'Noted: your cat Miso.' });
    await archive({
      runId: 'run_bob',
      principal: 'bob',
      sessionId: 'ses_b1',
      input: 'My cat is called Pepper and the weather in Lisbon is rainy',
      reply: 'Noted.',
    });
    await archive({
      runId: 'run_other_agent',
      sessionId: 'ses_a2',
      agent: 'planner',
      input: 'Plan a trip to Lisbon for my cat',
      reply: 'A plan for Lisbon.',
    });
  });

  it('finds an archived run with its anchors, the better match first', async () => {
    const chunks = await search({ principal: 'alice' }, 'sunny Lisbon degrees');
    expect(chunks[0].anchor.run_id).toBe('run_weather');
    expect(chunks.find((c) => c.anchor.segment_type === 'response')).toEqual({
      content: 'It is sunny in Lisbon, 24 degrees.',
      relevance: expect.any(Number),
      anchor: {
        run_id: 'run_weather',
        iteration_index: 2,
        segment_index: 0,
        segment_type: 'response',
        timestamp: '2026-11-26T10:00:00.000Z',
      },
      session_id: 'ses_a1',
      agent: 'helper',
    });
    expect(chunks.map((c) => c.anchor.segment_type)).toEqual(
      expect.arrayContaining(['user_message', 'reasoning', 'tool_result']),
    );
    const relevances = chunks.map((c) => c.relevance);
    expect(relevances).toEqual([...relevances].sort((a, b) => b - a));
    // the rarer word decides: both of Miso's segments before the one that only mentions a cat
    const cats = await search({ principal: 'alice' }, 'Miso cat');
    expect(cats.slice(0, 2).map((c) => c.anchor.run_id)).toEqual(['run_cat', 'run_cat']);
    expect(cats[0].relevance).toBeGreaterThan(cats.at(-1)?.relevance ?? 0);
    expect(await search({ principal: 'alice' }, 'sunny', 1)).toHaveLength(1);
  });

  it('expands an anchor into its neighbours in the run, and the run’s goal', async () => {
    const expansion = await memory.expand(
      { principal: 'alice' },
      { runId: 'run_weather', iterationIndex: 1, segmentIndex: 1 },
      1,
    );
    expect(expansion).toMatchObject({
      goal: 'What is the weather in Lisbon?',
      before: [{ content: 'I should look up the weather in Lisbon', anchor: { segment_type: 'reasoning' } }],
      chunk: { content: 'get_weather {"city":"Lisbon"}', anchor: { segment_type: 'tool_call' } },
      after: [{ content: 'sunny, 24 degrees', anchor: { segment_type: 'tool_result' } }],
    });
    const wide = await memory.expand(
      { principal: 'alice' },
      { runId: 'run_weather', iterationIndex: 1, segmentIndex: 1 },
      5,
    );
    expect(wide?.before.map((c) => c.anchor.iteration_index)).toEqual([0, 1]);
    expect(wide?.after.map((c) => c.anchor.segment_type)).toEqual(['tool_result', 'response']);
  });

  it('keeps every principal, session and agent to its own memories', async () => {
    const contents = async (scope: MemoryScope, query: string) =>
      (await search(scope, query)).map((c) => c.content);
    expect(await contents({ principal: 'alice' }, 'Pepper rainy')).toEqual([]);
    expect(await contents({ principal: 'bob' }, 'Pepper')).toEqual([
      'My cat is called Pepper and the weather in Lisbon is rainy',
    ]);
    expect(await contents({ principal: 'alice', sessionId: 'ses_a2' }, 'cat')).toEqual([
      'Plan a trip to Lisbon for my cat',
    ]);
    expect((await contents({ principal: 'alice', agent: 'helper' }, 'cat')).sort()).toEqual([
      'My cat is called Miso',
      'Noted: your cat Miso.',
    ]);
    expect(
      await memory.expand(
        { principal: 'alice' },
        { runId: 'run_bob', iterationIndex: 0, segmentIndex: 0 },
        2,
      ),
    ).toBeUndefined();
    expect(
      await memory.expand(
        { principal: 'alice', agent: 'helper' },
        { runId: 'run_other_agent', iterationIndex: 0, segmentIndex: 0 },
        2,
      ),
    ).toBeUndefined();
  });

  it.each([
    '"',
    '"unbalanced',
    '*',
    'cat*',
    'OR',
    'cat OR',
    'AND NOT cat',
    'NEAR(cat miso)',
    'content:cat',
    '-cat',
    '^cat',
    "cat's & dog | !miso",
    '\'); DROP TABLE "MemorySegment"; --',
    'Lisbon 日本語 émigré 🐈',
    '\\ \u0000 ( ) { } [ ] :',
  ])('searches %j without an error', async (query) => {
    await expect(search({ principal: 'alice' }, query)).resolves.toBeInstanceOf(Array);
  });

  it('matches whatever the case, and accents the SQLite way as well', async () => {
    expect((await search({ principal: 'alice' }, 'MISO')).length).toBeGreaterThan(0);
    expect((await search({ principal: 'alice' }, 'cat OR')).map((c) => c.anchor.run_id)).toContain('run_cat');
  });

  it('a run archived twice is stored once', async () => {
    await memory.append(
      segmentRun({
        runId: 'run_cat',
        principal: 'alice',
        sessionId: 'ses_a1',
        agent: 'helper',
        input: 'My cat is called Miso',
        trace: [],
        reply: 'Noted: your cat Miso.',
        at: new Date(),
      }),
    );
    expect(await search({ principal: 'alice' }, 'Miso')).toHaveLength(2);
  });

  it('forgets one run, one session, then everything of a principal', async () => {
    expect(await memory.forget('alice', { runId: 'run_bob' })).toBe(0);
    expect(await memory.forget('alice', { runId: 'run_cat' })).toBe(2);
    expect(await search({ principal: 'alice' }, 'Miso')).toEqual([]);
    expect(await memory.forget('alice', { sessionId: 'ses_a2' })).toBe(2);
    expect(await search({ principal: 'alice' }, 'trip')).toEqual([]);
    expect(await search({ principal: 'alice' }, 'Lisbon')).not.toEqual([]);
    expect(await memory.forget('alice')).toBeGreaterThan(0);
    expect(await search({ principal: 'alice' }, 'Lisbon weather sunny')).toEqual([]);
    expect(await search({ principal: 'bob' }, 'Lisbon')).toHaveLength(1);
  });

  it('forgets a run’s memories when the run is deleted', async () => {
    await archive({ runId: 'run_gone', principal: 'carol', sessionId: 'ses_c', input: 'zebra crossing' });
    expect(await search({ principal: 'carol' }, 'zebra')).toHaveLength(1);
    await db.run.delete({ where: { id: 'run_gone' } });
    expect(await search({ principal: 'carol' }, 'zebra')).toEqual([]);
  });
});
