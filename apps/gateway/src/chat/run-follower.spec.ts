import { describe, expect, it } from 'vitest';
import type { Bus } from '@app/bus';
import {
  type AgentRunReply,
  NotFoundError,
  RunHandedOverError,
  type RunView,
  Subjects,
} from '@app/contracts';
import { followRun } from './run-follower';
import type { RunTakeovers } from './run-takeovers';

const REQUEST = { message: 'hi', run_id: 'run_1' };
const ANSWER: AgentRunReply = {
  session_id: 'ses_1',
  run_id: 'run_1',
  reply: 'Hello.',
  function_calls: [],
  finish_reason: 'final',
  usage: { prompt_tokens: 1, completion_tokens: 1 },
};
const stored = (status: RunView['status']) =>
  ({
    id: 'run_1',
    session_id: 'ses_1',
    status,
    reply: status === 'completed' ? 'Hello from the stored run.' : null,
    finish_reason: status === 'completed' ? 'final' : null,
    trace: [],
    usage: { prompt_tokens: 1, completion_tokens: 1 },
  }) as unknown as RunView;

const never = () => new Promise<never>(() => undefined);

/** A bus whose `agent.run` requests are answered by `runs` in turn, and `agent.runs.get` by `get`. */
function fakeBus(runs: (() => Promise<unknown>)[], get: () => Promise<unknown>) {
  const asked: string[] = [];
  const bus = {
    untilConnected: async () => true,
    request: (route: { subject: string }) => {
      asked.push(route.subject);
      return route.subject === Subjects.agentRun ? (runs.shift() ?? never)() : get();
    },
  } as unknown as Bus;
  return { bus, asked };
}

describe('following a run', () => {
  it('asks once more when the run is still unknown after the lapse (lost before it was recorded)', async () => {
    const { bus, asked } = fakeBus([never, async () => ANSWER], async () => {
      throw new NotFoundError('run', 'run_1');
    });
    const reply = await followRun(bus, REQUEST, { timeoutMs: 5_000, lostAfterMs: 20 });
    expect(reply).toEqual(ANSWER);
    expect(asked.filter((subject) => subject === Subjects.agentRun)).toHaveLength(2);
  });

  it('does not ask again for a run an executor has recorded', async () => {
    const { bus, asked } = fakeBus(
      [() => new Promise((resolve) => setTimeout(() => resolve(ANSWER), 150))],
      async () => stored('running'),
    );
    expect(await followRun(bus, REQUEST, { timeoutMs: 5_000, lostAfterMs: 20 })).toEqual(ANSWER);
    expect(asked.filter((subject) => subject === Subjects.agentRun)).toHaveLength(1);
    expect(asked).toContain(Subjects.agentRunGet);
  });

  it('follows the stored run once the run is taken over, whose first reply never comes', async () => {
    const { bus } = fakeBus([never], async () => stored('completed'));
    let takenOver!: () => void;
    const takeovers = {
      watch: () => ({
        takenOver: new Promise<void>((resolve) => (takenOver = resolve)),
        stop: () => undefined,
      }),
    } as unknown as RunTakeovers;
    const following = followRun(bus, REQUEST, { timeoutMs: 5_000, takeovers });
    takenOver();
    expect((await following).reply).toBe('Hello from the stored run.');
  });

  it('follows the stored run when its executor hands it over', async () => {
    const { bus } = fakeBus(
      [
        async () => {
          throw new RunHandedOverError('run_1');
        },
      ],
      async () => stored('completed'),
    );
    expect((await followRun(bus, REQUEST, { timeoutMs: 5_000 })).reply).toBe('Hello from the stored run.');
  });
});
