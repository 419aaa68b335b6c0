import { describe, expect, it } from 'vitest';
import type { Bus } from '@app/bus';
import { type AgentEvent, type AgentRunReply, AppError } from '@app/contracts';
import { runEvents } from './run-events';

const REPLY: AgentRunReply = {
  session_id: 'ses_1',
  run_id: 'run_1',
  reply: 'Hello.',
  function_calls: [],
  finish_reason: 'final',
  usage: { prompt_tokens: 1, completion_tokens: 1 },
};
const event = (type: AgentEvent['type'], seq: number, data: unknown = {}): AgentEvent => ({
  type,
  run_id: 'run_1',
  seq,
  data,
});

/** A bus whose subscription to the run's events is handed to the test, and which counts them open. */
function fakeBus() {
  const state = { publish: (_: AgentEvent) => undefined as void, open: 0 };
  const bus = {
    subscribe: (_subject: unknown, onMessage: (event: AgentEvent) => void) => {
      state.open++;
      state.publish = onMessage;
      return { unsubscribe: () => state.open-- };
    },
  } as unknown as Bus;
  return { bus, state };
}

async function all(events: AsyncIterable<AgentEvent>): Promise<AgentEvent[]> {
  const seen: AgentEvent[] = [];
  for await (const e of events) seen.push(e);
  return seen;
}

describe('runEvents', () => {
  it('relays the events published while the run goes, ending with its reply as run_end', async () => {
    const { bus, state } = fakeBus();
    const seen = all(
      runEvents(bus, 'run_1', async () => {
        state.publish(event('run_start', 1));
        state.publish(event('delta', 2, { text: 'Hel' }));
        return REPLY;
      }),
    );
    expect((await seen).map((e) => [e.type, e.seq])).toEqual([
      ['run_start', 1],
      ['delta', 2],
      ['run_end', 0],
    ]);
    expect((await seen).at(-1)?.data).toEqual(REPLY);
    expect(state.open).toBe(0);
  });

  it("ends at the executor's own run_end, and starts after a given event", async () => {
    const { bus, state } = fakeBus();
    const events = runEvents(
      bus,
      'run_1',
      async () => {
        for (let seq = 1; seq <= 3; seq++) state.publish(event('delta', seq));
        state.publish(event('run_end', 4, REPLY));
        return REPLY;
      },
      { after: 2 },
    );
    expect((await all(events)).map((e) => e.seq)).toEqual([3, 4]);
  });

  it('throws a refusal at the first event, before anything was relayed', async () => {
    const { bus, state } = fakeBus();
    const refused = all(
      runEvents(bus, 'run_1', () => Promise.reject(new AppError('not_found', 'no such agent'))),
    );
    await expect(refused).rejects.toMatchObject({ code: 'not_found' });
    expect(state.open).toBe(0);
  });

  it('relays the events before a failure, then throws it', async () => {
    const { bus, state } = fakeBus();
    const seen: string[] = [];
    const failing = (async () => {
      for await (const e of runEvents(bus, 'run_1', async () => {
        state.publish(event('run_start', 1));
        throw new AppError('timeout', 'too slow');
      }))
        seen.push(e.type);
    })();
    await expect(failing).rejects.toMatchObject({ code: 'timeout' });
    expect(seen).toEqual(['run_start']);
  });
});
