// The run journal as the executor writes it, on both real databases: written behind the run, in
// order, read back into what replayJournal rebuilds the run from.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  Agent,
  AgentRuntime,
  type CompletionResult,
  defineAgent,
  InMemoryFunctions,
  InMemoryRunJournal,
  JournalCursor,
  type PriorProgress,
  replayJournal,
  type RunState,
  type RunJournal,
  ScriptedModelClient,
  storedEntry,
} from '@app/agent-core';
import type { FunctionDefinition } from '@app/contracts';
import { type Logger, Metrics } from '@app/observability';
import { connectMigrated, type Db, openSqlWriter, type SqlWriter } from '@app/persistence';
import type { ServiceInfo } from '@app/runtime';
import { MIGRATED_DATABASES, REPO_ROOT } from '@app/testing';
import { RunJournalStore } from './run-journal.store';
import { RunRepository } from '../store/run.repository';
import { RunJournalRepository } from '../store/run-journal.repository';

const add: FunctionDefinition = {
  name: 'add',
  description: 'The sum of a and b.',
  parameters: {
    type: 'object',
    properties: { a: { type: 'number' }, b: { type: 'number' } },
    required: ['a', 'b'],
  },
};
const call = (args: Record<string, unknown>) => JSON.stringify({ type: 'action', tool: 'add', args });
const final = (answer: string) => JSON.stringify({ type: 'final', answer });

/** Hands every step to both stores: the database's journal and one kept in memory to compare with. */
function both(a: RunJournal, b: RunJournal): RunJournal {
  return {
    modelStepCompleted: (run, step) =>
      void (a.modelStepCompleted(run, step), b.modelStepCompleted(run, step)),
    toolCallCompleted: (run, c, outcome) =>
      void (a.toolCallCompleted(run, c, outcome), b.toolCallCompleted(run, c, outcome)),
    toolCallStarted: async (run, started) =>
      void (await Promise.all([a.toolCallStarted?.(run, started), b.toolCallStarted?.(run, started)])),
    planChanged: async () => undefined,
    runEnded: async (run, outcome) =>
      void (await Promise.all([a.runEnded(run, outcome), b.runEnded(run, outcome)])),
  };
}

describe.each(MIGRATED_DATABASES)('run journal on $name', ({ create }) => {
  let db: Db;
  let writer: SqlWriter;
  let drop: () => Promise<void>;
  const logger = { error: vi.fn(), debug: vi.fn() } as unknown as Logger;
  const info = { instance: 'executor-a' } as ServiceInfo;

  beforeAll(async () => {
    const database = await create();
    drop = database.drop;
    db = (await connectMigrated(database.url, REPO_ROOT)).db;
    writer = openSqlWriter(database.url, db);
  });
  afterAll(async () => {
    await writer?.close();
    await db?.$disconnect();
    await drop?.();
  });

  const newStore = () =>
    new RunJournalStore(new RunRepository(db), new RunJournalRepository(db, writer), logger, info);
  const openRun = (id: string) =>
    db.run.create({ data: { id, agent: 'default', input: 'hi', status: 'running' } });

  async function run(
    runId: string,
    store: RunJournal,
    replies: string[],
    prior?: PriorProgress,
    maxSteps = 10,
  ) {
    const model = new ScriptedModelClient(replies);
    const functions = new InMemoryFunctions().add(add, ({ a, b }) => ({
      data: { sum: (a as number) + (b as number), note: 'x'.repeat(2_000) },
    }));
    const runtime = AgentRuntime.create({ model, functions, journal: store });
    const agent = new Agent(
      runtime,
      defineAgent({
        name: 'default',
        protocol: 'json-action',
        allowed_tools: ['*'],
        observation_max_len: 200,
        max_steps: maxSteps,
      }),
    );
    const result = await agent.execute({ message: 'add them', runId }, { prior });
    return { result, model };
  }

  it('stores every step in order, and loads what rebuilds the run', async () => {
    await openRun('run_a');
    const store = newStore();
    const memory = new InMemoryRunJournal();
    const { result, model } = await run('run_a', both(store, memory), [
      call({ a: 2, b: 3 }),
      'not json',
      call({ a: 5, b: 7 }),
      final('12'),
    ]);
    expect(result.finish_reason).toBe('final');
    const loaded = await store.load('run_a');
    expect(loaded.map((entry) => [entry.seq, entry.kind])).toEqual([
      [1, 'model_step'],
      [2, 'tool_started'],
      [3, 'tool_call'],
      [4, 'model_step'],
      [5, 'model_step'],
      [6, 'tool_started'],
      [7, 'tool_call'],
      [8, 'model_step'],
    ]);
    expect(loaded).toEqual(memory.load('run_a'));
    const replayed = replayJournal(loaded.slice(0, 7), {
      protocol: 'json-action',
      opening: model.requests[0].messages,
    });
    expect(replayed.messages).toEqual(model.requests[3].messages);
    expect(replayJournal(loaded, { protocol: 'json-action', opening: [] }).trace).toEqual(result.trace);
  });

  it("writes a model step and its call's start together, and hands the last entries to the run's end", async () => {
    await openRun('run_t');
    const entries = new RunJournalRepository(db, writer);
    const appended = vi.spyOn(entries, 'append');
    const store = new RunJournalStore(new RunRepository(db), entries, logger, info);
    const run = { runId: 'run_t' } as RunState;
    const reply = (text: string): CompletionResult => ({
      text,
      toolCalls: [],
      usage: { prompt_tokens: 10, completion_tokens: 2 },
      stopReason: 'stop',
      model: 'scripted',
      provider: 'scripted',
      elapsedMs: 1,
    });
    store.modelStepCompleted(run, { step: 1, result: reply('calls add') });
    await store.toolCallStarted(run, { step: 1, index: 0, name: 'add', args: { a: 2, b: 3 } });
    expect(appended).toHaveBeenCalledTimes(1);
    store.modelStepCompleted(run, { step: 2, result: reply('5') });
    const turn = store.forTurn();
    await turn.runEnded(run, { finishReason: 'final', reply: '5' });
    const tail = turn.tail();
    expect(appended).toHaveBeenCalledTimes(1);
    expect(turn.tail()).toEqual([]);
    expect(tail).toMatchObject([{ seq: 3, kind: 'model_step', text: '5' }]);
    expect((await store.load('run_t')).map((entry) => entry.kind)).toEqual(['model_step', 'tool_started']);
  });

  it('keeps a call as the trace does: typed arguments and the observation the model read', async () => {
    await openRun('run_b');
    const store = newStore();
    await run('run_b', store, [call({ a: '2', b: 3 }), final('5')]);
    const [, started, tool] = await store.load('run_b');
    expect(started).toMatchObject({
      kind: 'tool_started',
      step: 1,
      index: 0,
      name: 'add',
      args: { a: 2, b: 3 },
    });
    expect(tool).toMatchObject({ kind: 'tool_call', step: 1, index: 0, name: 'add', args: { a: 2, b: 3 } });
    expect(tool).toMatchObject({ status: 'success', executed: true });
    const observation = tool.kind === 'tool_call' ? tool.observation : '';
    expect(observation).toContain('5');
    expect(observation.length).toBeLessThanOrEqual(200);
    expect(JSON.stringify(tool)).not.toContain('x'.repeat(300));
  });

  it('goes on from the last stored entry when a held run is taken up again elsewhere', async () => {
    await openRun('run_c');
    const first = await run('run_c', newStore(), [call({ a: 1, b: 1 })], undefined, 1);
    expect(first.result.finish_reason).toBe('max_steps');
    const { trace, used_tools: usedTools, usage } = first.result;
    await run('run_c', newStore(), [final('2')], { trace, usedTools, usage, totalMs: 0 });
    const loaded = await newStore().load('run_c');
    expect(loaded.map((entry) => [entry.seq, entry.step, entry.kind])).toEqual([
      [1, 1, 'model_step'],
      [2, 1, 'tool_started'],
      [3, 1, 'tool_call'],
      [4, 2, 'model_step'],
    ]);
  });

  it("saves a run's plan only while this executor holds the run's lease", async () => {
    await db.run.create({
      data: { id: 'run_p', agent: 'default', input: 'plan it', status: 'running', lease_owner: 'executor-a' },
    });
    const store = newStore();
    const plan = (description: string) => ({
      revision: 1,
      steps: [{ index: 0, description, tool: 'add', params: {}, status: 'pending' as const }],
    });
    const planOf = async () => (await db.run.findUniqueOrThrow({ where: { id: 'run_p' } })).plan;
    await store.planChanged({ runId: 'run_p', plan: plan('ours') } as unknown as RunState);
    expect(await planOf()).toMatchObject({ steps: [{ description: 'ours' }] });
    await db.run.update({
      where: { id: 'run_p' },
      data: { lease_owner: 'executor-b', plan: plan('theirs') },
    });
    await store.planChanged({ runId: 'run_p', plan: plan('stale') } as unknown as RunState);
    expect(await planOf()).toMatchObject({ steps: [{ description: 'theirs' }] });
  });

  it('stores a message the caller added mid-run in its place, and loads it back', async () => {
    await openRun('run_d');
    const entries = new RunJournalRepository(db, writer);
    const cursor = new JournalCursor();
    const written = [cursor.userMessage(2, 'also this'), cursor.userMessage(2, '也这样')];
    await entries.append('run_d', written);
    expect(await entries.load('run_d')).toEqual(written.map(storedEntry));
    expect(written[1]).toMatchObject({ seq: 2, kind: 'user_message', step: 2, text: '也这样' });
  });

  it('reads entries an older executor wrote as this one writes them, and refuses a newer format', async () => {
    await openRun('run_f');
    const store = newStore();
    const row = (seq: number, format: number | undefined, data: object) => ({
      run_id: 'run_f',
      seq,
      kind: 'model_step',
      step: seq,
      data,
      elapsed_ms: 1,
      ...(format === undefined ? {} : { format }),
    });
    await db.runJournalEntry.create({ data: row(1, undefined, { text: 'an old step', tool_calls: [] }) });
    await db.runJournalEntry.create({
      data: row(2, 2, { text: 'cut', tool_calls: [], stop_reason: 'length' }),
    });
    expect(await store.load('run_f')).toMatchObject([
      { seq: 1, text: 'an old step', stopReason: 'stop' },
      { seq: 2, text: 'cut', stopReason: 'length' },
    ]);

    await db.runJournalEntry.create({ data: row(3, 99, { text: 'from the future' }) });
    const refused = await store.load('run_f').catch((err: unknown) => err);
    expect(refused).toMatchObject({ code: 'unavailable' });
    expect((refused as Error).message).toContain('format 99');
  });

  it('a failed write is logged and counted, the run goes on, and its later entries are dropped', async () => {
    const before = (await Metrics.runJournalUnwritten().get()).values[0]?.value ?? 0;
    const store = newStore();
    const { result } = await run('run_unknown', store, [call({ a: 1, b: 2 }), final('3')]);
    expect(result).toMatchObject({ finish_reason: 'final', reply: '3' });
    expect(logger.error).toHaveBeenCalledWith(
      expect.stringContaining('run journal'),
      expect.objectContaining({ run_id: 'run_unknown' }),
    );
    const after = (await Metrics.runJournalUnwritten().get()).values[0]?.value ?? 0;
    expect(after - before).toBe(4);
    expect(await store.load('run_unknown')).toEqual([]);
  });
});
