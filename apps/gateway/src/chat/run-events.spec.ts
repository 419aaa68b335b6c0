import { describe, expect, it } from 'vitest';
import { type AgentEvent, type AgentRunReply, AppError } from '@app/contracts';
import { type RunEventSource, runEvents } from './run-events';

const REPLY: AgentRunReply = {
  session_id: 'ses_1',
  run_id: 'run_1',
  reply: 'Hello.',
  function_calls: [],
  finish_reason: 'final',
  usage: { prompt_tokens: 1, completion_tokens: 1 },
};
const event = (type: AgentEvent['type'], data: unknown = {}): AgentEvent => ({
  type,
  run_id: 'run_1',
  seq: 0,
  data,
});

/**
 * A small log of one run's events: `keep` numbers and stores an event, delivered to the readers
 * open then (or later, with `late`: stored now, delivered when the test says); counts readers open.
 */
function fakeLog(kept: AgentEvent[] = []) {
  const log = [...kept].map((e, i) => ({ ...e, seq: i + 1 }));
  const readers = new Set<(e: AgentEvent) => void>();
  const held: AgentEvent[] = [];
  const state = { open: 0 };
  const source: RunEventSource = {
    last: async () => log.at(-1),
    read: async (_runId, after, onEvent) => {
      for (const e of log.filter((e) => e.seq > after)) onEvent(e);
      readers.add(onEvent);
      state.open++;
      return () => {
        readers.delete(onEvent);
        state.open--;
      };
    },
  };
  const keep = (e: AgentEvent, { late = false } = {}) => {
    const stored = { ...e, seq: log.length + 1 };
    log.push(stored);
    if (late) held.push(stored);
    else for (const reader of readers) reader(stored);
  };
  const deliverHeld = () => {
    for (const e of held.splice(0)) for (const reader of readers) reader(e);
  };
  return { source, state, keep, deliverHeld };
}

async function all(events: AsyncIterable<AgentEvent>): Promise<AgentEvent[]> {
  const seen: AgentEvent[] = [];
  for await (const e of events) seen.push(e);
  return seen;
}

describe('runEvents', () => {
  it("relays the run's kept events, numbered, to its own run_end", async () => {
    const { source, state, keep } = fakeLog();
    const seen = await all(
      runEvents(source, 'run_1', async () => {
        keep(event('run_start'));
        keep(event('delta', { text: 'Hel' }));
        keep(event('run_end', REPLY));
        return REPLY;
      }),
    );
    expect(seen.map((e) => [e.type, e.seq])).toEqual([
      ['run_start', 1],
      ['delta', 2],
      ['run_end', 3],
    ]);
    expect(seen.at(-1)?.data).toEqual(REPLY);
    expect(state.open).toBe(0);
  });

  it('starts after the last event kept when asked (a new leg of the run), or after a given one', async () => {
    const earlier = [event('run_start'), event('run_end', REPLY)];
    const leg = fakeLog(earlier);
    const next = runEvents(leg.source, 'run_1', async () => {
      leg.keep(event('delta'));
      leg.keep(event('run_end', REPLY));
      return REPLY;
    });
    expect((await all(next)).map((e) => e.seq)).toEqual([3, 4]);

    const resumed = fakeLog([event('run_start'), event('delta'), event('delta'), event('run_end', REPLY)]);
    const after = runEvents(resumed.source, 'run_1', async () => REPLY, { after: 2 });
    expect((await all(after)).map((e) => [e.type, e.seq])).toEqual([
      ['delta', 3],
      ['run_end', 4],
    ]);
  });

  it('waits for events kept before the reply but delivered after it, rather than end without them', async () => {
    const { source, keep, deliverHeld } = fakeLog();
    const events = runEvents(source, 'run_1', async () => {
      keep(event('run_start'), { late: true });
      keep(event('run_end', REPLY), { late: true });
      setImmediate(deliverHeld);
      return REPLY;
    });
    expect((await all(events)).map((e) => [e.type, e.seq])).toEqual([
      ['run_start', 1],
      ['run_end', 2],
    ]);
  });

  it('waits for the events of a run that streamed, kept only after its reply, to its own run_end', async () => {
    const { source, keep } = fakeLog();
    const events = runEvents(source, 'run_1', async () => {
      keep(event('run_start'));
      keep(event('tool_call'));
      // the reply is in before the run's last events are stored
      setImmediate(() => {
        keep(event('tool_result'));
        keep(event('delta', { text: 'Hello.' }));
        keep(event('run_end', REPLY));
      });
      return REPLY;
    });
    expect((await all(events)).map((e) => [e.type, e.seq])).toEqual([
      ['run_start', 1],
      ['tool_call', 2],
      ['tool_result', 3],
      ['delta', 4],
      ['run_end', 5],
    ]);
  });

  it('ends with the reply as run_end when the run kept no event (it did not stream)', async () => {
    const { source } = fakeLog();
    const seen = await all(runEvents(source, 'run_1', async () => REPLY, { after: 0 }));
    expect(seen).toEqual([{ type: 'run_end', run_id: 'run_1', seq: 0, data: REPLY }]);
  });

  it("reads again what a reader lost, then ends with the reply when the run's own run_end never comes", async () => {
    const { source, keep } = fakeLog();
    const seen = await all(
      runEvents(
        source,
        'run_1',
        async () => {
          keep(event('run_start'));
          keep(event('delta'), { late: true });
          return REPLY;
        },
        { endGraceMs: 10 },
      ),
    );
    expect(seen.map((e) => [e.type, e.seq])).toEqual([
      ['run_start', 1],
      ['delta', 2],
      ['run_end', 2],
    ]);
  });

  it('throws a refusal at the first event, before anything was relayed', async () => {
    const { source, state } = fakeLog();
    const refused = all(
      runEvents(source, 'run_1', () => Promise.reject(new AppError('not_found', 'no such agent'))),
    );
    await expect(refused).rejects.toMatchObject({ code: 'not_found' });
    expect(state.open).toBe(0);
  });

  it('relays the events before a failure, then throws it', async () => {
    const { source, keep } = fakeLog();
    const seen: string[] = [];
    const failing = (async () => {
      for await (const e of runEvents(source, 'run_1', async () => {
        keep(event('run_start'));
        throw new AppError('timeout', 'too slow');
      }))
        seen.push(e.type);
    })();
    await expect(failing).rejects.toMatchObject({ code: 'timeout' });
    expect(seen).toEqual(['run_start']);
  });
});
