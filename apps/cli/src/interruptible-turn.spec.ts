import { describe, expect, it } from 'vitest';
import { AgentChassisError, type AgentChassisClient } from '@app/client';
import { InterruptibleTurn } from './interruptible-turn';

function fakeClient(answer: () => Promise<unknown> = async () => ({})) {
  const cancelled: string[] = [];
  const client = {
    runs: { cancel: (id: string) => (cancelled.push(id), answer()) },
  } as unknown as AgentChassisClient;
  return { client, cancelled };
}

describe('InterruptibleTurn', () => {
  it('cancels the run and stops reading on Ctrl-C once the run has an id', () => {
    const { client, cancelled } = fakeClient();
    const turn = new InterruptibleTurn(client, () => undefined);
    turn.started('run_1');
    turn.interrupt();
    expect(cancelled).toEqual(['run_1']);
    expect(turn.interrupted).toBe(true);
  });

  it('waits for the run id when Ctrl-C comes first; a second Ctrl-C stops reading at once', () => {
    const { client, cancelled } = fakeClient();
    const early = new InterruptibleTurn(client, () => undefined);
    early.interrupt();
    expect(early.interrupted).toBe(false);
    early.started('run_2');
    expect(cancelled).toEqual(['run_2']);
    expect(early.interrupted).toBe(true);

    const impatient = new InterruptibleTurn(client, () => undefined);
    impatient.interrupt();
    impatient.interrupt();
    expect(impatient.interrupted).toBe(true);
    expect(cancelled).toEqual(['run_2']);
  });

  it('reports a failed cancel, but not a run that had already ended (conflict)', async () => {
    const errors: unknown[] = [];
    for (const code of ['conflict', 'unavailable'] as const) {
      const { client } = fakeClient(() =>
        Promise.reject(new AgentChassisError({ code, message: code, status: 409 })),
      );
      const turn = new InterruptibleTurn(client, (err) => errors.push(err));
      turn.started('run_3');
      turn.interrupt();
    }
    await new Promise((r) => setImmediate(r));
    expect(errors).toEqual([expect.objectContaining({ code: 'unavailable' })]);
  });
});
