import { describe, expect, it } from 'vitest';
import { TimeoutError } from '@app/contracts';
import { ConcurrencyLimiter } from '@app/functions';

const open = () => new AbortController().signal;

describe('ConcurrencyLimiter', () => {
  it('hands out `limit` slots and gives a freed slot to the next in line', async () => {
    const limiter = new ConcurrencyLimiter(2);
    const releases = [await limiter.acquire(open()), await limiter.acquire(open())];
    let third = false;
    const waiting = limiter.acquire(open()).then((release) => {
      third = true;
      return release;
    });
    await Promise.resolve();
    expect([limiter.running, limiter.queued, third]).toEqual([2, 1, false]);
    releases[0]();
    releases[0]();
    (await waiting)();
    expect(third).toBe(true);
    releases[1]();
    expect([limiter.running, limiter.queued]).toEqual([0, 0]);
  });

  it('stops waiting when the call’s signal aborts, with the signal’s reason', async () => {
    const limiter = new ConcurrencyLimiter(1);
    const release = await limiter.acquire(open());
    const controller = new AbortController();
    const waiting = limiter.acquire(controller.signal);
    controller.abort(new TimeoutError('too late'));
    await expect(waiting).rejects.toThrow('too late');
    expect(limiter.queued).toBe(0);
    release();
    expect(limiter.running).toBe(0);
  });

  it('refuses at once when the waiting line is full', async () => {
    const limiter = new ConcurrencyLimiter(1, 1);
    await limiter.acquire(open());
    void limiter.acquire(open());
    await expect(limiter.acquire(open())).rejects.toMatchObject({ code: 'unavailable', message: /busy/ });
  });
});
