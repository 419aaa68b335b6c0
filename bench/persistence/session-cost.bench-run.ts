// What a priced turn's reply pays to say its session's cost so far: one sum over the session's
// runs (SessionRepository.cost), by session length, on each database.
import { afterAll, describe, it } from 'vitest';
import { connectMigrated, type Db, openSqlWriter } from '@app/persistence';
import { MIGRATED_DATABASES, REPO_ROOT } from '@app/testing';
import { SessionRepository, TurnWritesRepository } from '../../apps/agent-executor/src/testing/parts';

const LENGTHS = [1, 20, 200];
const CALLS = 500;
const PROGRESS = {
  status: 'completed' as const,
  reply: 'Done.',
  finish_reason: 'final' as const,
  trace: [],
  used_tools: {},
  usage: { prompt_tokens: 1_000, completion_tokens: 100, cost_usd: 0.00021 },
  total_ms: 5,
};

async function sessionOf(turns: TurnWritesRepository, id: string, runs: number): Promise<void> {
  for (let i = 0; i < runs; i++) {
    const run = {
      id: `run_${id}_${i}`,
      session_id: id,
      owner: 'a',
      agent: 'default',
      mode: 'react',
      input: 'hi',
    };
    const opening = i === 0 ? { id, agent: 'default', owner: 'a', title: 'hi', earlier: [] } : undefined;
    await turns.startTurn(run, opening);
    await turns.finishTurn({
      runId: run.id,
      progress: PROGRESS,
      sessionId: id,
      messages: [{ id: `msg_${id}_${i}`, role: 'user', content: 'hi', tokens: 1 }],
      lastSeq: i,
    });
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

describe.each(MIGRATED_DATABASES)('session cost on $name', ({ name, create }) => {
  const closing: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const close of closing.reverse()) await close();
  });

  it('sums a session’s runs', async () => {
    const database = await create();
    closing.push(database.drop);
    const db: Db = (await connectMigrated(database.url, REPO_ROOT)).db;
    closing.push(() => db.$disconnect());
    const writer = openSqlWriter(database.url, db);
    closing.push(() => writer.close());
    const turns = new TurnWritesRepository(db, writer);
    const sessions = new SessionRepository(db, writer);
    for (const length of LENGTHS) {
      const id = `ses_${length}`;
      await sessionOf(turns, id, length);
      for (let i = 0; i < 50; i++) await sessions.cost(id);
      const wall: number[] = [];
      const cpuBefore = process.cpuUsage();
      for (let i = 0; i < CALLS; i++) {
        const started = performance.now();
        await sessions.cost(id);
        wall.push(performance.now() - started);
      }
      const cpu = process.cpuUsage(cpuBefore);
      console.log(
        `${name} | ${length} runs | ${median(wall).toFixed(3)} ms wall (p50) | ${((cpu.user + cpu.system) / 1000 / CALLS).toFixed(3)} ms CPU of this process a call | ${await sessions.cost(id)} USD`,
      );
    }
  });
});
