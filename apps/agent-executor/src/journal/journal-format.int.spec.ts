// A rolling upgrade with runs in flight: an executor of this version takes up a run that an executor
// of journal format 1 left half done (the fixture holds its rows as that executor stored them), and
// an executor never carries on a run written by a newer one. In-process executor, private NATS,
// SQLite, the scripted model.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JOURNAL_FORMAT } from '@app/agent-core';
import { AppError, Routes } from '@app/contracts';
import { DB, type Db } from '@app/persistence';
import { expectEventually } from '@app/testing';
import { RunTakeoverService } from '../runs/run-takeover.service';
import { arithmetic, startWorld, type World } from '../testing/world';

interface Fixture {
  session: { id: string; owner: string; agent: string; title: string };
  run: { id: string } & Record<string, unknown>;
  entries: ({ seq: number; data: object } & Record<string, unknown>)[];
}

const fixture = JSON.parse(
  readFileSync(join(__dirname, 'run-journal.format-1.fixture.json'), 'utf8'),
) as Fixture;
const lapsed = () => new Date(Date.now() - 60_000);

let world: World;
let db: Db;

beforeAll(async () => {
  world = await startWorld({
    functions: arithmetic,
    agents: [{ name: 'calc', protocol: 'json-action', allowed_tools: ['*'] }],
  });
  db = world.executor.app.get(DB);
});
afterAll(() => world?.close());

/** The fixture's rows, as its executor left them: its lease lapsed, its journal in format 1. */
async function leaveFixtureRun(): Promise<void> {
  await db.session.create({ data: fixture.session });
  await db.run.create({ data: { ...fixture.run, lease_until: lapsed() } as never });
  await db.runJournalEntry.createMany({
    data: fixture.entries.map((entry) => ({ ...entry, run_id: fixture.run.id })) as never,
  });
}

describe('a journal written by an older executor', () => {
  it('is carried on from where it stopped: nothing journaled is asked or called again', async () => {
    await leaveFixtureRun();
    // the scripted model numbers its replies by the conversation's turns: this is the second
    world.script({
      replies: ['(journaled: never asked)', JSON.stringify({ type: 'final', answer: '2 + 3 = 5.' })],
    });

    expect(await world.executor.app.get(RunTakeoverService).sweep()).toBe(1);

    const run = await expectEventually(async () => {
      const row = await db.run.findUniqueOrThrow({ where: { id: fixture.run.id } });
      expect(row.status).toBe('completed');
      return row;
    });
    expect(run).toMatchObject({ reply: '2 + 3 = 5.', takeovers: 1, journal_format: JOURNAL_FORMAT });
    expect(world.functions.calls).toEqual([]);
    expect(world.llm.requests()).toHaveLength(1);
    // the model was sent the conversation the first executor had built: its call, and its result
    const sent = JSON.stringify(world.llm.requests()[0].body);
    expect(sent).toContain('I add them.');
    expect(sent).toContain('sum: 5');
    const entries = await db.runJournalEntry.findMany({
      where: { run_id: fixture.run.id },
      orderBy: { seq: 'asc' },
    });
    expect(entries.map((entry) => [entry.seq, entry.kind, entry.format])).toEqual([
      [1, 'model_step', 1],
      [2, 'tool_started', 1],
      [3, 'tool_call', 1],
      [4, 'model_step', JOURNAL_FORMAT],
    ]);
    expect(entries[3].data).toMatchObject({ stop_reason: 'stop' });
  });
});

describe('a run written by a newer executor', () => {
  it('is not taken over here: another executor, of that version, carries it on', async () => {
    await db.run.create({
      data: {
        id: 'run_newer',
        agent: 'calc',
        input: 'hi',
        status: 'running',
        lease_owner: 'executor-next',
        lease_until: lapsed(),
        journal_format: JOURNAL_FORMAT + 1,
      },
    });

    expect(await world.executor.app.get(RunTakeoverService).sweep()).toBe(0);

    expect(await db.run.findUniqueOrThrow({ where: { id: 'run_newer' } })).toMatchObject({
      status: 'running',
      lease_owner: 'executor-next',
      takeovers: 0,
    });
  });

  it('refuses a decision on its held call as unavailable, naming the formats, and changes nothing', async () => {
    await db.run.create({
      data: {
        id: 'run_held_newer',
        agent: 'calc',
        input: 'pay',
        status: 'awaiting_approval',
        state_format: 99,
      },
    });

    const refused = await world.bus
      .request(
        Routes.agentRunApprove,
        {
          run_id: 'run_held_newer',
          decision: { action: 'approve', call_id: 'run_held_newer:1:0', hash: 'a'.repeat(64) },
        },
        { timeoutMs: 10_000 },
      )
      .catch((err: unknown) => err);

    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({ code: 'unavailable' });
    expect((refused as AppError).message).toMatch(/newer agent-executor.*format 99/);
    expect(await db.run.findUniqueOrThrow({ where: { id: 'run_held_newer' } })).toMatchObject({
      status: 'awaiting_approval',
      lease_owner: null,
    });
  });
});
