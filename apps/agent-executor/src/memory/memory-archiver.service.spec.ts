import { describe, expect, it, vi } from 'vitest';
import type { FinishedRun } from '@app/agent-core';
import { type Logger, Metrics } from '@app/observability';
import { MemoryArchiverService } from './memory-archiver.service';
import type { MemoryIndexService } from './memory-index.service';

const run: FinishedRun = {
  runId: 'run_1',
  principal: 'alice',
  sessionId: 'ses_1',
  agent: 'helper',
  input: 'remember the milk',
  trace: [],
  reply: 'I will.',
  at: new Date(0),
};

const counted = async (status: string) =>
  (await Metrics.memorySegments().get()).values.find((v) => v.labels.status === status)?.value ?? 0;

describe('MemoryArchiverService', () => {
  it('writes behind the caller: nothing before archive returns, the segments after', async () => {
    const append = vi.fn(async () => undefined);
    const embedRun = vi.fn(async () => undefined);
    const archiver = new MemoryArchiverService(
      { append, embedRun } as unknown as MemoryIndexService,
      {} as Logger,
    );
    const before = await counted('archived');
    archiver.archive(run);
    expect(append).not.toHaveBeenCalled();
    await archiver.settled();
    expect(append).toHaveBeenCalledWith([
      expect.objectContaining({ type: 'user_message', content: 'remember the milk' }),
      expect.objectContaining({ type: 'response', content: 'I will.' }),
    ]);
    expect((await counted('archived')) - before).toBe(2);
    expect(embedRun).toHaveBeenCalledWith('run_1');
  });

  it('logs and counts a failed write, and never throws it', async () => {
    const error = vi.fn();
    const append = vi.fn(async () => Promise.reject(new Error('disk full')));
    const embedRun = vi.fn(async () => undefined);
    const archiver = new MemoryArchiverService(
      { append, embedRun } as unknown as MemoryIndexService,
      { error } as unknown as Logger,
    );
    const before = await counted('failed');
    expect(() => archiver.archive(run)).not.toThrow();
    await archiver.settled();
    expect((await counted('failed')) - before).toBe(2);
    expect(error).toHaveBeenCalledWith(
      expect.stringContaining('could not archive'),
      expect.objectContaining({ run_id: 'run_1' }),
    );
    expect(embedRun).not.toHaveBeenCalled();
  });
});
