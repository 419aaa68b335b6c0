import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectMigrated, type Db, openSqlWriter, type SqlWriter } from '@app/persistence';
import { MIGRATED_DATABASES, REPO_ROOT } from '@app/testing';
import { TurnWritesRepository } from './turn-writes.repository';
import { RunLeaseRepository } from './run-lease.repository';
import { RunRepository } from './run.repository';

const seconds = (n: number) => new Date(Date.now() + n * 1000);

describe.each(MIGRATED_DATABASES)('RunLeaseRepository on $name', ({ create }) => {
  let db: Db;
  let drop: () => Promise<void>;
  let writer: SqlWriter;
  let leases: RunLeaseRepository;
  let turns: TurnWritesRepository;

  beforeAll(async () => {
    const database = await create();
    drop = database.drop;
    db = (await connectMigrated(database.url, REPO_ROOT)).db;
    writer = openSqlWriter(database.url, db);
    leases = new RunLeaseRepository(db);
    turns = new TurnWritesRepository(db, writer);
  });
  afterAll(async () => {
    await writer?.close();
    await db?.$disconnect();
    await drop?.();
  });

  const leased = (id: string, owner: string, until: Date) =>
    turns.startTurn({
      id,
      session_id: null as never,
      owner: '',
      agent: 'default',
      mode: 'react',
      input: 'hi',
      lease: { owner, until },
    });
  const row = (id: string) => db.run.findUniqueOrThrow({ where: { id } });

  it('renews only the heartbeat owner’s running runs that it still runs', async () => {
    await leased('a1', 'exec-a', seconds(1));
    await leased('a2', 'exec-a', seconds(1));
    await leased('a3', 'exec-a', seconds(1));
    await leased('b1', 'exec-b', seconds(1));
    await db.run.update({ where: { id: 'a2' }, data: { status: 'completed' } });
    const until = seconds(60);

    // a3: its execution here ended without its end recorded: it must lapse, to be taken over
    expect(await leases.renew('exec-a', ['a1', 'a2', 'b1'], until)).toBe(1);
    expect((await row('a1')).lease_until?.getTime()).toBe(until.getTime());
    expect((await row('a2')).lease_until?.getTime()).not.toBe(until.getTime());
    expect((await row('a3')).lease_until?.getTime()).not.toBe(until.getTime());
    expect((await row('b1')).lease_until?.getTime()).not.toBe(until.getTime());
    expect(await leases.renew('exec-a', [], until)).toBe(0);
  });

  it('gives a lapsed run to exactly one of the executors claiming it at once, and counts the takeover', async () => {
    await leased('lapsed', 'dead', seconds(-10));
    const now = new Date();
    const claimers = ['x', 'y', 'z', 'w'];
    const won = await Promise.all(claimers.map((owner) => leases.claim('lapsed', owner, now, seconds(60))));

    expect(won.filter(Boolean)).toHaveLength(1);
    const winner = claimers[won.indexOf(true)];
    expect(await row('lapsed')).toMatchObject({ lease_owner: winner, takeovers: 1 });
    expect(await leases.lostBy('dead', ['lapsed'])).toEqual(['lapsed']);
    expect(await leases.lostBy(winner, ['lapsed'])).toEqual([]);
  });

  it('never claims a run whose lease still holds, or one that ended', async () => {
    await leased('held', 'exec-a', seconds(60));
    await leased('ended', 'dead', seconds(-10));
    await db.run.update({ where: { id: 'ended' }, data: { status: 'failed' } });
    const now = new Date();

    expect(await leases.claim('held', 'thief', now, seconds(60))).toBe(false);
    expect(await leases.claim('ended', 'thief', now, seconds(60))).toBe(false);
    expect((await leases.lapsed(now, 100)).map((run) => run.id)).not.toContain('held');
    expect((await leases.lapsed(now, 100)).map((run) => run.id)).not.toContain('ended');
  });

  it('releases a stopping executor’s runs so the next sweep finds them lapsed', async () => {
    await leased('handed', 'stopping', seconds(60));
    await leased('other', 'exec-b', seconds(60));
    expect(await leases.release('stopping', ['handed', 'other'], new Date())).toBe(1);
    const later = new Date(Date.now() + 1);
    expect((await leases.lapsed(later, 100)).map((run) => run.id)).toContain('handed');
    expect(await leases.claim('handed', 'exec-b', later, seconds(60))).toBe(true);
  });

  it('leases a plan approved in the statement that sets it running: no sweep finds it lapsed', async () => {
    await leased('paused', 'first', seconds(-60));
    await db.run.update({ where: { id: 'paused' }, data: { status: 'awaiting_approval' } });
    const runs = new RunRepository(db);
    const until = seconds(60);

    expect(
      await runs.transition('paused', 'awaiting_approval', 'running', { owner: 'approver', until }),
    ).toBe(true);
    expect(await row('paused')).toMatchObject({
      status: 'running',
      lease_owner: 'approver',
      lease_until: until,
    });
    expect((await leases.lapsed(new Date(), 100)).map((run) => run.id)).not.toContain('paused');
    expect(await leases.claim('paused', 'thief', new Date(), seconds(60))).toBe(false);
  });
});
