import { describe, expect, it } from 'vitest';
import { coalesced } from './coalesce';

/** A task whose runs end when the test says, recording how many began. */
function gatedTask() {
  const gates: Array<() => void> = [];
  let began = 0;
  const task = () => {
    began += 1;
    return new Promise<void>((resolve) => gates.push(resolve));
  };
  const releaseNext = async () => {
    while (gates.length === 0) await new Promise((resolve) => setImmediate(resolve));
    gates.shift()?.();
  };
  return { task, releaseNext, began: () => began };
}

describe('coalesced', () => {
  it('runs once more after the running one, however many asks came meanwhile', async () => {
    const { task, releaseNext, began } = gatedTask();
    const ask = coalesced(task);
    const first = ask();
    await new Promise((resolve) => setImmediate(resolve));
    const asks = [ask(), ask(), ask()];
    expect(began()).toBe(1);
    await releaseNext();
    await first;
    await releaseNext();
    await Promise.all(asks);
    expect(began()).toBe(2);
  });

  it('settles an ask only after a run that began after it', async () => {
    const { task, releaseNext } = gatedTask();
    const ask = coalesced(task);
    void ask();
    await new Promise((resolve) => setImmediate(resolve));
    let settled = false;
    const later = ask().then(() => (settled = true));
    await releaseNext();
    await new Promise((resolve) => setImmediate(resolve));
    expect(settled).toBe(false);
    await releaseNext();
    await later;
    expect(settled).toBe(true);
  });

  it('gives a failure to its own asks and still runs the next', async () => {
    let runs = 0;
    const ask = coalesced(async () => {
      runs += 1;
      if (runs === 1) throw new Error('first run failed');
    });
    await expect(ask()).rejects.toThrow('first run failed');
    await expect(ask()).resolves.toBeUndefined();
    expect(runs).toBe(2);
  });
});
