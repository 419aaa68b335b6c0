import type { Bus } from '@app/bus';
import { describe, expect, it } from 'vitest';
import { AppError, type FunctionDefinition } from '@app/contracts';
import type { FunctionCatalog } from '@app/functions';
import type { SchedulerSettings } from '../../config/scheduler.config';
import type { TaskTargetSpec } from '../domain/task';
import type { CronTaskRepository } from '../store/cron-task.repository';
import type { DelayTaskRepository } from '../store/delay-task.repository';
import { TaskGuards } from './task-guards.service';

// The catalogue as a small fake port: which providers answer is what these cases vary.
const sendMessage: FunctionDefinition = {
  name: 'send_message',
  description: 'sends a message',
  provider: 'builtin',
  parameters: {
    type: 'object',
    properties: {
      to: { type: 'string' },
      message: { type: 'string' },
      channel: { type: 'string', enum: ['console', 'webhook'], default: 'console' },
    },
    required: ['to', 'message'],
  },
};
const delayList: FunctionDefinition = {
  name: 'delay_list',
  description: 'lists delays',
  provider: 'scheduler',
  parameters: { type: 'object', properties: {}, required: [] },
};

function guards(definitions: FunctionDefinition[], { stale = false } = {}): TaskGuards {
  const catalog = {
    // stale: the name missed by a lookup in a young catalogue, then found by a fresh gathering
    get: async (name: string) => (stale ? undefined : definitions.find((d) => d.name === name)),
    list: async () => definitions,
  } as unknown as FunctionCatalog;
  const settings = { maxTasksPerOwner: 10 } as SchedulerSettings;
  const delays = { countPending: async () => 0 } as unknown as DelayTaskRepository;
  const crons = { countEnabled: async () => 0 } as unknown as CronTaskRepository;
  // function tasks only here: the agent check asks an executor (delay-tasks.int.spec)
  return new TaskGuards(settings, delays, crons, catalog, {} as Bus);
}

const target = (function_name: string, params: Record<string, unknown>): TaskTargetSpec => ({
  target: 'function',
  function_name,
  params: JSON.stringify(params),
  agent: null,
  session_id: null,
  message: null,
});

async function refusal(work: Promise<unknown>): Promise<AppError> {
  const err = await work.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(err instanceof AppError)) throw new Error(`expected an AppError, got ${String(err)}`);
  return err;
}

describe('TaskGuards: a task function and its params, checked at creation', () => {
  it('refuses params the function would refuse when it fires, naming each field inside params', async () => {
    const err = await refusal(
      guards([sendMessage]).admit('alice', target('send_message', { channel: 'fax' })),
    );
    expect(err.code).toBe('invalid_params');
    expect(err.message).toMatch(/^invalid params for send_message: /);
    expect(err.details).toEqual(
      expect.arrayContaining([
        { field: 'params.to', message: 'is required' },
        { field: 'params.message', message: 'is required' },
        { field: 'params.channel', message: expect.stringMatching(/must be one of/) },
      ]),
    );
  });

  it('finds a function the fresh list has though the young catalogue missed it (never "unknown X; available: X")', async () => {
    await expect(
      guards([sendMessage], { stale: true }).admit(
        'alice',
        target('send_message', { to: 'ops', message: 'hi' }),
      ),
    ).resolves.toBeUndefined();
  });

  it('admits params that fit the schema, defaults left to the function', async () => {
    await expect(
      guards([sendMessage]).admit('alice', target('send_message', { to: 'ops', message: 'hi' })),
    ).resolves.toBeUndefined();
  });

  it('names an unknown function with the ones that exist (400)', async () => {
    const err = await refusal(guards([sendMessage, delayList]).admit('alice', target('send_mesage', {})));
    expect(err.toBody()).toEqual({
      code: 'invalid_params',
      message:
        "invalid parameters: function: unknown function 'send_mesage'; available: send_message, delay_list",
      details: [
        { field: 'function', message: "unknown function 'send_mesage'; available: send_message, delay_list" },
      ],
    });
  });

  it('answers unavailable (503) when no provider but the scheduler answers: nothing can be checked', async () => {
    const err = await refusal(guards([delayList]).admit('alice', target('send_message', { to: 'ops' })));
    expect(err.code).toBe('unavailable');
    expect(err.message).toMatch(
      /no function provider answers right now, so function 'send_message' cannot be checked/,
    );
  });
});
