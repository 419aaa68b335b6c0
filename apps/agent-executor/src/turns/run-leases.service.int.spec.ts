import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { PlatformConfig } from '@app/config';
import type { Logger } from '@app/observability';
import { connectMigrated, type Db, openSqlWriter, type SqlWriter } from '@app/persistence';
import type { ServiceInfo } from '@app/runtime';
import { MIGRATED_DATABASES, REPO_ROOT } from '@app/testing';
import type { RunJournalStore } from '../journal/run-journal.store';
import type { RunState } from '@app/agent-core';
import { TurnWritesRepository } from '../store/turn-writes.repository';
import { RunLeaseRepository } from '../store/run-lease.repository';
import { RunLeases } from './run-leases.service';

const config = { executor: { lease_lapse: 6_000 } } as PlatformConfig;
const logger = { warn: vi.fn(), info: vi.fn() } as unknown as Logger;

describe.each(MIGRATED_DATABASES)('RunLeases on $name', ({ create }) => {
  let db: Db;
  let drop: () => Promise<void>;
  let writer: SqlWriter;
  let repository: RunLeaseRepository;
  let turns: TurnWritesRepository;
  const abandoned: string[] = [];
  const journal = { abandon: (runId: string) => abandoned.push(runId) } as unknown as RunJournalStore;
  const keeper = (instance: string) =>
    new RunLeases(repository, journal, config, { instance } as ServiceInfo, logger);
  const fakeRun = (runId: string) =>
    ({ runId, abort: vi.fn() }) as unknown as RunState & { abort: () => void };

  beforeAll(async () => {
    const database = await create();
    drop = database.drop;
    db = (await connectMigrated(database.url, REPO_ROOT)).db;
    writer = openSqlWriter(database.url, db);
    repository = new RunLeaseRepository(db);
    turns = new TurnWritesRepository(db, writer);
  });
  afterAll(async () => {
    await writer?.close();
    await db?.$disconnect();
    await drop?.();
  });

  const started = (id: string, lease: { owner: string; until: Date }) =>
    turns.startTurn({
      id,
      session_id: null as never,
      owner: '',
      agent: 'default',
      mode: 'react',
      input: 'hi',
      lease,
    });

  it('stops here, without a write or a reply, a run another executor took over', async () => {
    const a = keeper('exec-a');
    const kept = fakeRun('kept');
    const taken = fakeRun('taken');
    await started('kept', a.lease());
    await started('taken', a.lease(Date.now() - 60_000)); // its lease lapsed: our heartbeats were late
    a.hold(kept);
    a.hold(taken);
    expect(await repository.claim('taken', 'exec-b', new Date(), new Date(Date.now() + 6_000))).toBe(true);

    await a.heartbeat();
    expect(taken.abort).toHaveBeenCalled();
    expect(kept.abort).not.toHaveBeenCalled();
    expect(abandoned).toEqual(['taken']);
    expect(a.wasHandedOver('taken')).toBe(true);
    expect(a.wasHandedOver('kept')).toBe(false);
    expect((await db.run.findUniqueOrThrow({ where: { id: 'taken' } })).lease_owner).toBe('exec-b');
  });

  it('on stop, hands over the runs still in flight and releases their leases', async () => {
    const c = keeper('exec-c');
    const slow = fakeRun('slow');
    await started('slow', c.lease());
    c.hold(slow);

    await c.stop(Date.now() + 50);
    expect(c.closed).toBe(true);
    expect(slow.abort).toHaveBeenCalled();
    expect(c.wasHandedOver('slow')).toBe(true);
    const later = new Date(Date.now() + 1);
    expect((await repository.lapsed(later, 100)).map((run) => run.id)).toContain('slow');
  });
});
