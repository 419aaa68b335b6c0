import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectMigrated, type Db, openSqlWriter, type SqlWriter } from '@app/persistence';
import { MIGRATED_DATABASES, REPO_ROOT } from '@app/testing';
import { TurnWritesRepository } from './turn-writes.repository';
import type { HeldApproval } from './held-approval';
import { RunApprovalRepository } from './run-approval.repository';

const seconds = (n: number) => new Date(Date.now() + n * 1000);

const heldCall = (id: string, index: number, expiresAt: Date | null): HeldApproval => ({
  call_id: `${id}:1:${index}`,
  function: 'transfer',
  arguments: { amount: index },
  hash: 'a'.repeat(64),
  asked_at: new Date().toISOString(),
  expires_at: expiresAt?.toISOString() ?? null,
  step: 1,
  index,
});

describe.each(MIGRATED_DATABASES)('RunApprovalRepository on $name', ({ create }) => {
  let db: Db;
  let drop: () => Promise<void>;
  let writer: SqlWriter;
  let approvals: RunApprovalRepository;
  let turns: TurnWritesRepository;

  beforeAll(async () => {
    const database = await create();
    drop = database.drop;
    db = (await connectMigrated(database.url, REPO_ROOT)).db;
    writer = openSqlWriter(database.url, db);
    approvals = new RunApprovalRepository(db);
    turns = new TurnWritesRepository(db, writer);
  });
  afterAll(async () => {
    await writer?.close();
    await db?.$disconnect();
    await drop?.();
  });

  /** A run held on `held`, as the finisher leaves it. */
  const holding = async (id: string, held: HeldApproval[]) => {
    await turns.startTurn({
      id,
      session_id: null as never,
      owner: '',
      agent: 'default',
      mode: 'react',
      input: 'pay',
      lease: { owner: 'exec-a', until: seconds(5) },
    });
    await approvals.hold(id, held);
    await db.run.update({ where: { id }, data: { status: 'awaiting_approval' } });
    return db.run.findUniqueOrThrow({ where: { id } });
  };

  it('keeps the earliest expiry of the calls still waiting, and finds the runs past it', async () => {
    const soon = seconds(-1);
    const row = await holding('r1', [heldCall('r1', 0, seconds(60)), heldCall('r1', 1, soon)]);
    expect(row.approval_expires_at?.getTime()).toBe(soon.getTime());
    expect(await approvals.expired(new Date(), 10)).toContain('r1');

    const decided = (row.approvals as unknown as HeldApproval[]).map((call, i) =>
      i === 1 ? { ...call, decision: { action: 'reject' as const } } : call,
    );
    expect(await approvals.decide('r1', row.updated_at, decided)).toBe(true);
    expect(await approvals.expired(new Date(), 10)).not.toContain('r1');
  });

  it('a decision lands only on the row as its decider read it', async () => {
    const row = await holding('r2', [heldCall('r2', 0, null), heldCall('r2', 1, null)]);
    const first = [
      { ...heldCall('r2', 0, null), decision: { action: 'approve' as const } },
      heldCall('r2', 1, null),
    ];
    expect(await approvals.decide('r2', row.updated_at, first)).toBe(true);
    // a second decider read the row before the first wrote: refused, nothing lost
    expect(await approvals.decide('r2', row.updated_at, [heldCall('r2', 0, null)])).toBe(false);
    const stored = await db.run.findUniqueOrThrow({ where: { id: 'r2' } });
    expect((stored.approvals as unknown as HeldApproval[])[0].decision).toEqual({ action: 'approve' });
  });

  it('of executors releasing the same run at once, exactly one wins it, with its lease', async () => {
    const row = await holding('r3', [heldCall('r3', 0, null)]);
    const decided = [{ ...heldCall('r3', 0, null), decision: { action: 'approve' as const } }];
    const results = await Promise.all(
      ['exec-a', 'exec-b', 'exec-c'].map((owner) =>
        approvals.release('r3', row.updated_at, decided, { owner, until: seconds(5) }),
      ),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
    const stored = await db.run.findUniqueOrThrow({ where: { id: 'r3' } });
    expect(stored.status).toBe('running');
    expect(stored.lease_owner).toBe(['exec-a', 'exec-b', 'exec-c'][results.indexOf(true)]);
    expect(stored.approval_expires_at).toBeNull();
  });

  it('a call held again under the same id replaces the old one', async () => {
    await holding('r4', [heldCall('r4', 0, null)]);
    await approvals.hold('r4', [{ ...heldCall('r4', 0, null), arguments: { amount: 99 } }]);
    const stored = await db.run.findUniqueOrThrow({ where: { id: 'r4' } });
    expect(stored.approvals).toEqual([expect.objectContaining({ arguments: { amount: 99 } })]);
  });
});
