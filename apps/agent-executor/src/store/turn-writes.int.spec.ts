// The writes every turn makes (raw SQL, one text for both databases), against both real databases.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type JournalEntry, type ModelStepEntry, storedEntry } from '@app/agent-core';
import { ConflictError } from '@app/contracts';
import { connectMigrated, type Db, openSqlWriter, type SqlWriter } from '@app/persistence';
import { MIGRATED_DATABASES, REPO_ROOT } from '@app/testing';
import { RunJournalRepository } from './run-journal.repository';
import { RunLeaseRepository } from './run-lease.repository';
import { type RunProgress, RunRepository } from './run.repository';
import { SessionRepository } from './session.repository';
import { TurnWritesRepository } from './turn-writes.repository';
import { runView } from '../runs/run-view';

const progress = (over: Partial<RunProgress> = {}): RunProgress => ({
  status: 'completed',
  reply: 'The sum is 5.',
  finish_reason: 'final',
  trace: [{ step: 1, type: 'final', ms: 3 } as never],
  used_tools: { add: { count: 1, total_ms: 1 } },
  usage: { prompt_tokens: 120, completion_tokens: 8 },
  total_ms: 7,
  ...over,
});

const lastStep = (text: string): JournalEntry => ({
  seq: 1,
  kind: 'model_step',
  step: 1,
  elapsedMs: 4,
  text,
  toolCalls: [],
  stopReason: 'stop',
  usage: { prompt_tokens: 120, completion_tokens: 8 },
});

const message = (id: string, role: 'user' | 'assistant', content: string) => ({
  id,
  role,
  content,
  tokens: 3,
});

describe.each(MIGRATED_DATABASES)('turn writes on $name', ({ create }) => {
  let db: Db;
  let drop: () => Promise<void>;
  let runs: RunRepository;
  /** A stored run as the runs API shows it, with its owner. */
  const viewOf = async (id: string) => {
    const record = await runs.find(id);
    return record && { owner: record.owner, view: runView(record) };
  };
  let sessions: SessionRepository;
  let writer: SqlWriter;
  let turns: TurnWritesRepository;
  let journal: RunJournalRepository;

  beforeAll(async () => {
    const database = await create();
    drop = database.drop;
    db = (await connectMigrated(database.url, REPO_ROOT)).db;
    writer = openSqlWriter(database.url, db);
    runs = new RunRepository(db);
    sessions = new SessionRepository(db, writer);
    turns = new TurnWritesRepository(db, writer);
    journal = new RunJournalRepository(db, writer);
  });
  afterAll(async () => {
    await writer?.close();
    await db?.$disconnect();
    await drop?.();
  });

  const open = (id: string) =>
    turns.startTurn(
      {
        id: `run_${id}`,
        session_id: id,
        owner: 'alice',
        agent: 'default',
        mode: 'react',
        input: 'hi',
        trace_id: 'abc',
      },
      { id, agent: 'default', owner: 'alice', title: 'hi', earlier: [] },
    );

  it('opens a session with its first run, both readable through the models', async () => {
    await open('s1');
    expect(await sessions.find('s1')).toEqual({
      id: 's1',
      agent: 'default',
      owner: 'alice',
      summary: null,
      summary_upto: 0,
    });
    const stored = await viewOf('run_s1');
    expect(stored?.owner).toBe('alice');
    expect(stored?.view).toMatchObject({
      status: 'running',
      input: 'hi',
      session_id: 's1',
      finished_at: null,
    });
    expect(Date.now() - Date.parse(stored!.view.created_at)).toBeLessThan(60_000);
  });

  it('refuses a run id twice with a conflict, and leaves no half-open session behind', async () => {
    await open('s2');
    const again = await turns
      .startTurn(
        { id: 'run_s2', session_id: 's2b', owner: 'alice', agent: 'default', mode: 'react', input: 'x' },
        { id: 's2b', agent: 'default', owner: 'alice', title: 'x', earlier: [] },
      )
      .catch((e: unknown) => e);
    expect(again).toBeInstanceOf(ConflictError);
    expect(await sessions.find('s2b')).toBeNull();
  });

  it("appends a turn's messages with the run's final record, JSON and usage included", async () => {
    await open('s3');
    const before = (await sessions.view('s3'))!.view.updated_at;
    expect(
      await turns.finishTurn({
        runId: 'run_s3',
        progress: progress(),
        sessionId: 's3',
        messages: [message('m1', 'user', 'hi'), message('m2', 'assistant', 'ok')],
        lastSeq: 0,
      }),
    ).toBe('written');
    const run = (await viewOf('run_s3'))!.view;
    expect(run).toMatchObject({
      status: 'completed',
      reply: 'The sum is 5.',
      finish_reason: 'final',
      error: null,
      plan: null,
      trace: [{ step: 1, type: 'final', ms: 3 }],
      used_tools: { add: { count: 1, total_ms: 1 } },
      usage: { prompt_tokens: 120, completion_tokens: 8 },
      total_ms: 7,
    });
    expect(run.finished_at).not.toBeNull();
    const session = (await sessions.view('s3'))!.view;
    expect(session.messages.map((m) => [m.seq, m.role, m.content, m.run_id])).toEqual([
      [1, 'user', 'hi', 'run_s3'],
      [2, 'assistant', 'ok', 'run_s3'],
    ]);
    expect(Date.parse(session.updated_at)).toBeGreaterThanOrEqual(Date.parse(before));
    expect(await sessions.messagesAfter('s3', 0, 1)).toEqual([
      { seq: 2, role: 'assistant', content: 'ok', tokens: 3 },
    ]);
    expect(await sessions.messagesAfter('s3', 0, 5)).toEqual([
      { seq: 1, role: 'user', content: 'hi', tokens: 3 },
      { seq: 2, role: 'assistant', content: 'ok', tokens: 3 },
    ]);
  });

  it("keeps what the provider's prompt cache served and wrote, on the run and in its journal", async () => {
    await open('s_cache');
    const usage = {
      prompt_tokens: 5_000,
      completion_tokens: 40,
      cached_prompt_tokens: 4_096,
      cache_write_tokens: 640,
    };
    const step = { ...(lastStep('cached') as ModelStepEntry), usage };
    expect(
      await turns.finishTurn({
        runId: 'run_s_cache',
        progress: progress({ usage: { ...usage, cost_usd: 0.0021 } }),
        sessionId: 's_cache',
        messages: [message('mc1', 'user', 'hi'), message('mc2', 'assistant', 'ok')],
        lastSeq: 0,
        journal: [step],
      }),
    ).toBe('written');
    expect((await viewOf('run_s_cache'))!.view.usage).toEqual({ ...usage, cost_usd: 0.0021 });
    expect(await journal.load('run_s_cache')).toEqual([storedEntry(step)]);
    // a run saved without them reads as before: no zero counts
    await runs.save('run_s_cache', progress());
    expect((await viewOf('run_s_cache'))!.view.usage).toEqual({
      prompt_tokens: 120,
      completion_tokens: 8,
    });
  });

  it('keeps a stored plan when a later save carries none, and a paused run unfinished', async () => {
    await open('s4');
    const plan = { steps: [{ id: 1, title: 'add', status: 'pending' }] } as never;
    await runs.save('run_s4', progress({ status: 'awaiting_approval', finish_reason: 'final', plan }));
    expect((await viewOf('run_s4'))!.view).toMatchObject({
      status: 'awaiting_approval',
      plan,
      finished_at: null,
    });
    await runs.save('run_s4', progress({ error: 'step 1 failed', finish_reason: 'error', status: 'failed' }));
    expect((await viewOf('run_s4'))!.view).toMatchObject({
      status: 'failed',
      plan,
      error: 'step 1 failed',
    });
  });

  it('retries when another turn took the sequence numbers it assumed', async () => {
    await open('s5');
    await turns.finishTurn({
      runId: 'run_s5',
      progress: progress(),
      sessionId: 's5',
      messages: [message('a1', 'user', 'one'), message('a2', 'assistant', 'two')],
      lastSeq: 0,
    });
    // This turn loaded the history before the first one finished: it still believes the last seq is 0.
    await turns.finishTurn({
      runId: 'run_s5',
      progress: progress(),
      sessionId: 's5',
      messages: [message('b1', 'user', 'three'), message('b2', 'assistant', 'four')],
      lastSeq: 0,
    });
    const contents = (await sessions.view('s5'))!.view.messages.map((m) => `${m.seq}:${m.content}`);
    expect(contents).toEqual(['1:one', '2:two', '3:three', '4:four']);
  });

  it('reports a session deleted while its run was in flight, and writes nothing for it', async () => {
    await open('s6');
    await sessions.delete('s6');
    expect(
      await turns.finishTurn({
        runId: 'run_s6',
        progress: progress(),
        sessionId: 's6',
        messages: [message('c1', 'user', 'x')],
        lastSeq: 0,
      }),
    ).toBe('session_gone');
    expect(await viewOf('run_s6')).toBeNull();
  });

  it("refuses the end of an executor that lost the run's lease, its journal's last entries with it, and writes the new holder's", async () => {
    const leases = new RunLeaseRepository(db);
    const lapsed = new Date(Date.now() - 1000);
    await turns.startTurn(
      {
        id: 'run_s7',
        session_id: 's7',
        owner: 'alice',
        agent: 'default',
        mode: 'react',
        input: 'hi',
        lease: { owner: 'exec-stale', until: lapsed },
      },
      { id: 's7', agent: 'default', owner: 'alice', title: 'hi', earlier: [] },
    );
    expect(await leases.claim('run_s7', 'exec-new', new Date(), new Date(Date.now() + 60_000))).toBe(true);
    const end = (leaseOwner: string, reply: string) =>
      turns.finishTurn({
        runId: 'run_s7',
        progress: progress({ reply }),
        sessionId: 's7',
        messages: [message(`${leaseOwner}-1`, 'user', 'hi'), message(`${leaseOwner}-2`, 'assistant', reply)],
        leaseOwner,
        journal: [lastStep(reply)],
      });

    expect(await end('exec-stale', 'stale answer')).toBe('fenced');
    expect(
      await runs.save(
        'run_s7',
        progress({ reply: 'stale pause', status: 'awaiting_approval' }),
        'exec-stale',
      ),
    ).toBe(false);
    expect((await viewOf('run_s7'))!.view).toMatchObject({ status: 'running', reply: null });
    expect((await sessions.view('s7'))!.view.messages).toEqual([]);
    expect(await journal.load('run_s7')).toEqual([]);

    expect(await end('exec-new', 'the answer')).toBe('written');
    expect((await viewOf('run_s7'))!.view).toMatchObject({ status: 'completed', reply: 'the answer' });
    expect((await sessions.view('s7'))!.view.messages.map((m) => m.content)).toEqual(['hi', 'the answer']);
    expect(await journal.load('run_s7')).toEqual([storedEntry(lastStep('the answer'))]);
  });
});
