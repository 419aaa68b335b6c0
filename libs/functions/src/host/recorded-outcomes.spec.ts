import { describe, expect, it, vi } from 'vitest';
import type { KvBucket, KvEntry } from '@app/bus';
import { TimeoutError, UnavailableError } from '@app/contracts';
import { Logger } from '@app/observability';
import { type KeyedCall, RecordedOutcomes } from './recorded-outcomes';

const quiet = new Logger({ service: 'test', level: 'error', format: 'json', write: () => undefined });

/** The bucket's contract in memory: create-if-absent, compare-and-set, watch. */
class MemoryBucket {
  private readonly entries = new Map<string, KvEntry>();
  private readonly watchers = new Set<{ key: string; on: (value: unknown) => void }>();
  private revision = 0;

  create(key: string, value: unknown): Promise<number | undefined> {
    return Promise.resolve(this.entries.has(key) ? undefined : this.write(key, value));
  }

  update(key: string, value: unknown, revision: number): Promise<number | undefined> {
    const current = this.entries.get(key)?.revision;
    return Promise.resolve(current === revision ? this.write(key, value) : undefined);
  }

  get(key: string): Promise<KvEntry | undefined> {
    return Promise.resolve(this.entries.get(key));
  }

  watch(key: string, on: (value: unknown) => void): Promise<() => void> {
    const watcher = { key, on };
    this.watchers.add(watcher);
    return Promise.resolve(() => this.watchers.delete(watcher));
  }

  private write(key: string, value: unknown): number {
    this.revision += 1;
    this.entries.set(key, { value, revision: this.revision });
    for (const w of this.watchers) if (w.key === key) w.on(value);
    return this.revision;
  }
}

const never = () => new Promise<never>(() => undefined);

function setup() {
  const bucket = new MemoryBucket();
  const outcomes = new RecordedOutcomes(
    () => Promise.resolve(bucket as unknown as KvBucket),
    quiet,
    (t) => t,
  );
  const call = (over: Partial<KeyedCall> = {}): KeyedCall => ({
    name: 'send',
    key: 'run1:0:0',
    principal: 'p1',
    params: { to: 'bob' },
    idempotent: false,
    deadline: Date.now() + 1_000,
    signal: new AbortController().signal,
    ...over,
  });
  return { outcomes, call };
}

describe('RecordedOutcomes', () => {
  it('never runs a keyed call when the store cannot be reached, and tries the store again next time', async () => {
    const open = vi
      .fn<() => Promise<KvBucket>>()
      .mockRejectedValueOnce(new UnavailableError('no JetStream'))
      .mockResolvedValue(new MemoryBucket() as unknown as KvBucket);
    const outcomes = new RecordedOutcomes(open, quiet, (t) => t);
    const work = vi.fn(() => Promise.resolve({ message: 'sent' }));
    const call = { name: 'send', key: 'k', params: {}, idempotent: false };
    const signal = new AbortController().signal;
    await expect(
      outcomes.once({ ...call, deadline: Date.now() + 1_000, signal }, work),
    ).rejects.toMatchObject({
      code: 'unavailable',
    });
    expect(work).not.toHaveBeenCalled();
    await expect(outcomes.once({ ...call, deadline: Date.now() + 1_000, signal }, work)).resolves.toEqual({
      message: 'sent',
    });
  });

  it('runs an idempotent call unrecorded when the store cannot be reached (a repeat is safe anyway)', async () => {
    const outcomes = new RecordedOutcomes(
      () => Promise.reject(new UnavailableError('no JetStream')),
      quiet,
      (t) => t,
    );
    const work = vi.fn(() => Promise.resolve({ message: 'read' }));
    const call = { name: 'read', key: 'k', params: {}, idempotent: true };
    const signal = new AbortController().signal;
    await expect(outcomes.once({ ...call, deadline: Date.now() + 1_000, signal }, work)).resolves.toEqual({
      message: 'read',
    });
    expect(work).toHaveBeenCalledTimes(1);
  });

  it('answers a repeat of a call whose provider died with it unavailable, once and for all, without running it', async () => {
    const { outcomes, call } = setup();
    void outcomes.once(call({ deadline: Date.now() - 10_000 }), never);
    const work = vi.fn(() => Promise.resolve({ message: 'sent again' }));
    const interrupted = { code: 'unavailable', message: expect.stringMatching(/interrupted/) };
    await expect(outcomes.once(call(), work)).rejects.toMatchObject(interrupted);
    await expect(outcomes.once(call(), work)).rejects.toMatchObject(interrupted);
    expect(work).not.toHaveBeenCalled();
  });

  it('runs an idempotent function again when its first attempt’s provider died with it', async () => {
    const { outcomes, call } = setup();
    void outcomes.once(call({ idempotent: true, deadline: Date.now() - 10_000 }), never);
    const work = vi.fn(() => Promise.resolve({ message: 'read' }));
    await expect(outcomes.once(call({ idempotent: true }), work)).resolves.toEqual({ message: 'read' });
    await expect(outcomes.once(call({ idempotent: true }), work)).resolves.toEqual({ message: 'read' });
    expect(work).toHaveBeenCalledTimes(1);
  });

  it('leaves a call its provider cut off (shutting down) to a repeat if idempotent, and replays it if not', async () => {
    const { outcomes, call } = setup();
    const cutOff = () => Promise.reject(new UnavailableError('the runner is shutting down'));
    const work = vi.fn(() => Promise.resolve({ message: 'done' }));
    await expect(outcomes.once(call({ idempotent: true }), cutOff)).rejects.toMatchObject({
      code: 'unavailable',
    });
    await expect(outcomes.once(call({ idempotent: true }), work)).resolves.toEqual({ message: 'done' });
    await expect(outcomes.once(call({ key: 'k2' }), cutOff)).rejects.toMatchObject({ code: 'unavailable' });
    await expect(outcomes.once(call({ key: 'k2' }), work)).rejects.toThrow('shutting down');
    expect(work).toHaveBeenCalledTimes(1);
  });

  it('stops waiting for a running first attempt when the repeat’s own signal aborts', async () => {
    const { outcomes, call } = setup();
    void outcomes.once(call(), never);
    const controller = new AbortController();
    const waiting = outcomes.once(call({ signal: controller.signal }), never);
    controller.abort(new TimeoutError('too late'));
    await expect(waiting).rejects.toThrow('too late');
  });
});
