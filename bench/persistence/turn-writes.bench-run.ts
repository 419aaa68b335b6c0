// The CPU the executor spends on a chat turn's two writes (the run with its new session; the run's
// final record with the turn's two messages), by write path, alternating blocks on one database.
import { afterAll, describe, it } from 'vitest';
import { connectMigrated, type Db, openSqlWriter, prismaWriter, type SqlWriter } from '@app/persistence';
import { MIGRATED_DATABASES, REPO_ROOT } from '@app/testing';
import { TurnWritesRepository } from '../../apps/agent-executor/src/testing/parts';

const BLOCK = 300;
const ROUNDS = 5;
const WARMUP = 100;

const PROGRESS = {
  status: 'completed' as const,
  reply: 'The sum is 5.',
  finish_reason: 'final' as const,
  trace: [{ step: 1, type: 'final', ms: 3 } as never],
  used_tools: { add: { count: 1, total_ms: 1 } },
  usage: { prompt_tokens: 120, completion_tokens: 8 },
  total_ms: 7,
};

let next = 0;
async function turn(turns: TurnWritesRepository): Promise<void> {
  const id = `b${next++}`;
  await turns.startTurn(
    {
      id: `run_${id}`,
      session_id: id,
      owner: 'alice',
      agent: 'default',
      mode: 'react',
      input: 'Add 2 and 3',
    },
    { id, agent: 'default', owner: 'alice', title: 'Add 2 and 3', earlier: [] },
  );
  await turns.finishTurn({
    runId: `run_${id}`,
    progress: PROGRESS,
    sessionId: id,
    messages: [
      { id: `u_${id}`, role: 'user', content: 'Add 2 and 3', tokens: 4 },
      { id: `a_${id}`, role: 'assistant', content: 'The sum is 5.', tokens: 5 },
    ],
    lastSeq: 0,
  });
}

/** CPU milliseconds (user + system, this process) per turn over `count` turns. */
async function cpuPerTurn(turns: TurnWritesRepository, count: number): Promise<number> {
  const before = process.cpuUsage();
  for (let i = 0; i < count; i++) await turn(turns);
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000 / count;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

describe.each(MIGRATED_DATABASES)('turn writes on $name', ({ name, create }) => {
  const closing: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const close of closing.reverse()) await close();
  });

  it('costs less CPU on the writer’s own connection than through Prisma', async () => {
    const database = await create();
    closing.push(database.drop);
    const db: Db = (await connectMigrated(database.url, REPO_ROOT)).db;
    closing.push(() => db.$disconnect());
    const own: SqlWriter = openSqlWriter(database.url, db);
    closing.push(() => own.close());
    const paths = {
      'own connection': new TurnWritesRepository(db, own),
      'Prisma $transaction': new TurnWritesRepository(db, prismaWriter(db)),
    };
    for (const turns of Object.values(paths)) await cpuPerTurn(turns, WARMUP);
    const samples: Record<string, number[]> = Object.fromEntries(Object.keys(paths).map((k) => [k, []]));
    for (let round = 0; round < ROUNDS; round++)
      for (const [path, turns] of Object.entries(paths)) samples[path].push(await cpuPerTurn(turns, BLOCK));
    for (const [path, values] of Object.entries(samples))
      console.log(
        `${name} | ${path} | ${median(values).toFixed(3)} ms CPU a turn (blocks: ${values.map((v) => v.toFixed(3)).join(' / ')})`,
      );
  });
});
