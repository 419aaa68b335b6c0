import { describe, expect, it } from 'vitest';
import type { Bus } from '@app/bus';
import {
  type AgentRunReply,
  NotFoundError,
  RunHandedOverError,
  type RunView,
  Subjects,
} from '@app/contracts';
import { ConnectionLostError } from '@app/bus';
import { followApproval, followRun } from './run-follower';
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
    finish_reason: { completed: 'final', awaiting_approval: 'awaiting_approval' }[status as string] ?? null,
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
      return route.subject === Subjects.agentRunGet ? get() : (runs.shift() ?? never)();
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
    const { takeovers, takenOver } = fakeTakeovers();
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

describe('following an approved plan', () => {
  const APPROVAL = { run_id: 'run_1', stream: false };

  it('follows the stored run past the pause when the bus connection drops mid continuation', async () => {
    const states = [stored('awaiting_approval'), stored('running'), stored('completed')];
    const { bus, asked } = fakeBus(
      [
        async () => {
          throw new ConnectionLostError(Subjects.agentRunApprove);
        },
      ],
      async () => (states.length > 1 ? states.shift() : states[0]),
    );
    const reply = await followApproval(bus, APPROVAL, { timeoutMs: 10_000 });
    expect(reply.reply).toBe('Hello from the stored run.');
    expect(asked.filter((subject) => subject === Subjects.agentRunApprove)).toHaveLength(1);
    expect(asked.filter((subject) => subject === Subjects.agentRunGet)).toHaveLength(3);
  });

  it('follows the stored run once the continuation is taken over', async () => {
    const { bus } = fakeBus([never], async () => stored('completed'));
    const { takeovers, takenOver } = fakeTakeovers();
    const following = followApproval(bus, APPROVAL, { timeoutMs: 5_000, takeovers });
    takenOver();
    expect((await following).reply).toBe('Hello from the stored run.');
  });

  it('answers the executor’s reply when it comes', async () => {
    const { bus } = fakeBus([async () => ANSWER], async () => stored('running'));
    expect(await followApproval(bus, APPROVAL, { timeoutMs: 5_000 })).toEqual(ANSWER);
  });
});

describe("following a run going on with the caller's tool results", () => {
  const clientCall = (step: number, callId: string) => ({
    step,
    kind: 'client_tool_call',
    action: { tool: 'lookup', args: {} },
    call_id: callId,
    elapsed_ms: 0,
  });
  /** Paused for the client calls of `steps` (the last one's calls are those it waits for). */
  const paused = (...steps: [number, string][]) =>
    ({
      ...stored('running'),
      status: 'awaiting_tool_results',
      finish_reason: 'client_tool_calls',
      trace: steps.map(([step, id]) => clientCall(step, id)),
    }) as unknown as RunView;
  const RESULTS = {
    message: '',
    run_id: 'run_1',
    tool_results: [{ tool_call_id: 'call_run_1_0', content: '42' }],
  };

  it('takes a new pause, for other calls, as the answer when the bus connection dropped mid continuation', async () => {
    const states = [
      paused([1, 'call_run_1_0']),
      stored('running'),
      paused([1, 'call_run_1_0'], [2, 'call_run_1_1']),
    ];
    const { bus } = fakeBus(
      [
        async () => {
          throw new ConnectionLostError(Subjects.agentRun);
        },
      ],
      async () => (states.length > 1 ? states.shift() : states[0]),
    );
    const reply = await followRun(bus, RESULTS, { timeoutMs: 10_000 });
    expect(reply.finish_reason).toBe('client_tool_calls');
    expect(reply.client_tool_calls?.map((c) => c.id)).toEqual(['call_run_1_0', 'call_run_1_1'].slice(1));
  });
});

/** Takeovers whose one watch fires when the test calls `takenOver`. */
function fakeTakeovers(): { takeovers: RunTakeovers; takenOver: () => void } {
  let fire!: () => void;
  const takenOver = new Promise<void>((resolve) => (fire = resolve));
  const takeovers = { watch: () => ({ takenOver, stop: () => undefined }) } as unknown as RunTakeovers;
  return { takeovers, takenOver: () => fire() };
}
