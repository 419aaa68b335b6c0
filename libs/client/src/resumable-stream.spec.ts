import { describe, expect, it } from 'vitest';
import { AgentChassisError } from './errors';
import { resumable } from './resumable-stream';
import type { ChatEvent } from './types';

const start = { type: 'run_start', id: '1', data: { run_id: 'run_1' } } as ChatEvent;
const delta = (id: string) => ({ type: 'delta', id, data: { step: 1, text: id } }) as ChatEvent;
const end = { type: 'run_end', id: '9', data: { run_id: 'run_1' } } as unknown as ChatEvent;
const FAST = { policy: { firstMs: 1, maxMs: 2 }, max: 3 };

/** Events, then a broken connection (fetch's error) unless `then` ends them. */
async function* leg(events: ChatEvent[], then: 'drop' | 'end' = 'drop'): AsyncGenerator<ChatEvent> {
  yield* events;
  if (then === 'drop') throw new TypeError('terminated');
}

async function all(events: AsyncIterable<ChatEvent>): Promise<ChatEvent[]> {
  const seen: ChatEvent[] = [];
  for await (const e of events) seen.push(e);
  return seen;
}

describe('resumable', () => {
  it('resumes a dropped stream after the last id it got, and again, to run_end', async () => {
    const asked: string[] = [];
    const legs = [leg([delta('3')]), leg([delta('4'), end], 'end')];
    const seen = await all(
      resumable({
        first: leg([start, delta('2')]),
        resume: async (runId, after) => (asked.push(`${runId} after ${after}`), legs.shift()!),
        reconnects: FAST,
      }),
    );
    expect(seen.map((e) => e.id)).toEqual(['1', '2', '3', '4', '9']);
    expect(asked).toEqual(['run_1 after 2', 'run_1 after 3']);
  });

  it('resumes a stream that ended without run_end, and retries a gateway that is away', async () => {
    let away = 2;
    const seen = await all(
      resumable({
        first: leg([start], 'end'),
        resume: async () => {
          if (away-- > 0) throw new AgentChassisError({ code: 'unavailable', message: 'down', status: 503 });
          return leg([end], 'end');
        },
        reconnects: FAST,
      }),
    );
    expect(seen.map((e) => e.type)).toEqual(['run_start', 'run_end']);
  });

  it('gives up after the bounded reconnects, naming the run', async () => {
    const stream = resumable({
      first: leg([start]),
      resume: async () => leg([]),
      reconnects: FAST,
    });
    await expect(all(stream)).rejects.toMatchObject({
      code: 'unavailable',
      message: /GET \/api\/v1\/runs\/run_1/,
    });
  });

  it('cannot resume before the run and an event id are known, and does not retry an answer', async () => {
    await expect(
      all(resumable({ first: leg([]), resume: async () => leg([]), reconnects: FAST })),
    ).rejects.toMatchObject({
      code: 'unavailable',
    });
    const gone = new AgentChassisError({ code: 'not_found', message: 'no such run', status: 404 });
    const refused = resumable({
      first: leg([start]),
      resume: () => Promise.reject(gone),
      reconnects: FAST,
    });
    await expect(all(refused)).rejects.toBe(gone);
  });
});
