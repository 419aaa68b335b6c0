import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { RunHandedOverError } from '@app/contracts';
import type { Logger } from '@app/observability';
import { connectMigrated, type Db, openSqlWriter, type SqlWriter } from '@app/persistence';
import { MIGRATED_DATABASES, REPO_ROOT } from '@app/testing';
import type { PlatformConfig } from '@app/config';
import { RunApprovalRepository } from '../store/run-approval.repository';
import type { RunState } from '@app/agent-core';
import type { AgentProfile } from '../agents/agent-profile';
import type { MemoryArchiverService } from '../memory/memory-archiver.service';
import { SessionRepository } from '../store/session.repository';
import { TurnWritesRepository } from '../store/turn-writes.repository';
import { RunFinisherService } from './run-finisher.service';
import { RunLeaseRepository } from '../store/run-lease.repository';
import type { RunLeases } from './run-leases.service';
import { RunRepository } from '../store/run.repository';

describe.each(MIGRATED_DATABASES)('ending a run on $name', ({ create }) => {
  let db: Db;
  let drop: () => Promise<void>;
  let writer: SqlWriter;
  let turns: TurnWritesRepository;
  const logger = { warn: vi.fn(), debug: vi.fn() } as unknown as Logger & { warn: ReturnType<typeof vi.fn> };

  beforeAll(async () => {
    const database = await create();
    drop = database.drop;
    db = (await connectMigrated(database.url, REPO_ROOT)).db;
    writer = openSqlWriter(database.url, db);
    turns = new TurnWritesRepository(db, writer);
  });
  afterAll(async () => {
    await writer?.close();
    await db?.$disconnect();
    await drop?.();
  });

  const finisherOf = (owner: string) =>
    new RunFinisherService(
      new RunRepository(db),
      turns,
      new SessionRepository(db, writer),
      new RunApprovalRepository(db),
      { executor: { approval_timeout: 0 } } as PlatformConfig,
      { owner } as RunLeases,
      logger,
      { archive: vi.fn() } as unknown as MemoryArchiverService,
    );
  const inFlight = (runId: string, sessionId: string) =>
    ({
      runId,
      identity: { sessionId },
      definition: { name: 'default' },
      trace: [],
      usedTools: {},
      usage: { prompt_tokens: 3, completion_tokens: 2 },
      step: 1,
      toolCallsExecuted: 0,
      totalMs: () => 5,
      emit: vi.fn(),
    }) as unknown as RunState<AgentProfile> & { emit: ReturnType<typeof vi.fn> };

  it('drops the end of a run another executor took over: nothing written, nothing told, a warning', async () => {
    await turns.startTurn(
      {
        id: 'run_f1',
        session_id: 'f1',
        owner: '',
        agent: 'default',
        mode: 'react',
        input: 'hi',
        lease: { owner: 'exec-stale', until: new Date(Date.now() - 1000) },
      },
      { id: 'f1', agent: 'default', owner: '', title: 'hi', earlier: [] },
    );
    const later = new Date(Date.now() + 60_000);
    expect(await new RunLeaseRepository(db).claim('run_f1', 'exec-new', new Date(), later)).toBe(true);
    const stale = inFlight('run_f1', 'f1');

    const ended = await finisherOf('exec-stale')
      .finish(stale, { finishReason: 'final', reply: 'stale answer' }, { input: 'hi', journalTail: [] })
      .catch((err: unknown) => err);
    expect(RunHandedOverError.is(ended)).toBe(true);
    expect(stale.emit).not.toHaveBeenCalled();
    expect(logger.warn).toHaveBeenCalledWith(expect.stringMatching(/too late/), expect.anything());
    expect(await db.run.findUniqueOrThrow({ where: { id: 'run_f1' } })).toMatchObject({
      status: 'running',
      reply: null,
    });
    expect(await db.message.count({ where: { session_id: 'f1' } })).toBe(0);

    const taker = inFlight('run_f1', 'f1');
    const answered = await finisherOf('exec-new').finish(
      taker,
      { finishReason: 'final', reply: 'the answer' },
      { input: 'hi', journalTail: [] },
    );
    expect(answered.reply).toBe('the answer');
    expect(await db.run.findUniqueOrThrow({ where: { id: 'run_f1' } })).toMatchObject({
      status: 'completed',
    });
  });
});
