import { describe, expect, it } from 'vitest';
import { expectEventually } from '@app/testing';
import { ListeningTime } from './listening-time';

/** Holds this process's event loop: no timer runs meanwhile. */
function hold(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // busy
  }
}

describe('ListeningTime', () => {
  it('fires a watch once its time has passed, and never one cancelled', async () => {
    const time = new ListeningTime(10);
    const fired: string[] = [];
    const cancel = time.after(30, () => fired.push('cancelled'));
    time.after(30, () => fired.push('kept'));
    cancel();
    await expectEventually(() => expect(fired).toEqual(['kept']));
  });

  it('does not count a hold of this process as time listened', async () => {
    const time = new ListeningTime(10);
    const fired: string[] = [];
    time.after(100, () => fired.push('watch'));
    hold(300);
    // the first tick after the hold comes 290 ms late and counts for 20 ms
    await new Promise((resolve) => setTimeout(resolve, 1));
    expect(fired).toEqual([]);
    await expectEventually(() => expect(fired).toEqual(['watch']));
  });

  it('decides a watch that fell due only after the socket had its turn: an answer read then cancels it', async () => {
    const time = new ListeningTime(10);
    const fired: string[] = [];
    const cancel = time.after(15, () => fired.push('watch'));
    // due after the ticker's first tick and before the hold ends: run in the same turn, right after
    // that tick (which finds the watch due), as a reply read in that turn would be
    const answered = new Promise<void>((resolve) =>
      setTimeout(() => {
        cancel();
        resolve();
      }, 50),
    );
    hold(100);
    await answered;
    // the verdict, had it not been cancelled, was queued before this
    await new Promise((resolve) => setImmediate(resolve));
    expect(fired).toEqual([]);
  });
});
