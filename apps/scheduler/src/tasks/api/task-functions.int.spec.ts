import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Bus } from '@app/bus';
import {
  AgentNotFoundError,
  type AgentProfileView,
  type FnExecReply,
  Routes,
  type Scope,
} from '@app/contracts';
import { FunctionClient } from '@app/functions';
import {
  type CountingFunction,
  DATABASES,
  inMs,
  type RunningScheduler,
  type SchedulerWorld,
  schedulerWorld,
} from '../../testing/scheduler.harness';
import { DelayTasksService } from './delay-tasks.service';

// The model's side: delay_* and cron_* called over the real bus, as the agent executor calls them.
describe('the scheduler functions (fn.exec over real NATS, SQLite)', () => {
  let world: SchedulerWorld;
  let scheduler: RunningScheduler;
  let fn: CountingFunction;
  let bus: Bus;
  let client: FunctionClient;

  const TASKS: Scope[] = ['tasks:read', 'tasks:write'];
  const call = (name: string, params: Record<string, unknown>, principal = 'alice', scopes = TASKS) =>
    client.call(name, params, {
      timeoutMs: 5_000,
      caller: { kind: 'agent', principal, session_id: 'sess-1', agent: 'ops', scopes },
    });
  const errorOf = (reply: FnExecReply) =>
    reply.status === 'error' ? reply.error.message : `succeeded: ${JSON.stringify(reply.result)}`;

  beforeAll(async () => {
    world = await schedulerWorld(DATABASES[0]);
    fn = world.fn;
    scheduler = await world.start({ SCHEDULER_MAX_TASKS_PER_OWNER: '4', SCHEDULER_MIN_CRON_INTERVAL: '1m' });
    bus = await Bus.connect({ url: world.nats.url, name: 'functions-spec' });
    client = new FunctionClient(bus);
    // the executor's side of a task's agent check: the calling agent exists
    bus.serve(Routes.agentProfileGet, ({ name }) => {
      if (name !== 'ops') throw new AgentNotFoundError(name);
      return { name } as AgentProfileView;
    });
    await bus.flush();
  });
  afterAll(async () => {
    await bus.drain();
    await world.close();
  });

  it('lists the six functions in fn.catalog, as provider scheduler, each safe to send again', async () => {
    const replies = await bus.gather(Routes.fnCatalog, 1_000);
    const ours = replies.find((r) => r.provider === 'scheduler' && r.instance === scheduler.instance);
    expect(ours?.functions.map((f) => f.name)).toEqual([
      'cron_create',
      'cron_delete',
      'cron_list',
      'delay_cancel',
      'delay_create',
      'delay_list',
    ]);
    expect(ours!.functions.every((f) => f.idempotent === true)).toBe(true);
    const create = ours!.functions.find((f) => f.name === 'delay_create')!;
    expect(create.parameters.required).toEqual(['name', 'run_at']);
    expect(Object.keys(create.parameters.properties)).toEqual(
      expect.arrayContaining(['function', 'params', 'misfire_policy']),
    );
  });

  it('creates a delay for the calling principal and reports it in one line', async () => {
    const reply = await call('delay_create', {
      name: 'remind',
      run_at: inMs(3_600_000),
      function: fn.name,
      params: '{"tag":"bob"}',
    });
    expect(reply).toMatchObject({
      status: 'success',
      result: { message: expect.stringMatching(/^delay 'remind' scheduled for /) },
    });
    const task = await scheduler.get(DelayTasksService).get('remind');
    expect(task).toMatchObject({
      owner: 'alice',
      function: fn.name,
      params: { tag: 'bob' },
      status: 'pending',
    });
  });

  it('turns a message into an agent turn on the calling conversation', async () => {
    const reply = await call('delay_create', {
      name: 'nudge',
      run_at: inMs(3_600_000),
      message: 'remind the user to stretch',
    });
    expect(reply.status).toBe('success');
    expect(await scheduler.get(DelayTasksService).get('nudge')).toMatchObject({
      target: 'agent',
      function: null,
      session_id: 'sess-1',
      agent: 'ops',
      message: 'remind the user to stretch',
    });
  });

  it('tells the model exactly what is wrong, field by field', async () => {
    const duplicate = await call('delay_create', { name: 'remind', run_at: inMs(60_000), function: fn.name });
    expect(errorOf(duplicate)).toMatch(/a delay named 'remind' already exists/);
    const past = await call('delay_create', {
      name: 'past',
      run_at: '2020-01-01T09:00:00+08:00',
      function: fn.name,
    });
    expect(errorOf(past)).toMatch(/run_at: is in the past \(it is now .*\); give a future time/);
    const noOffset = await call('delay_create', {
      name: 'local',
      run_at: '2030-01-01T09:00:00',
      function: fn.name,
    });
    expect(errorOf(noOffset)).toMatch(/run_at: must be an ISO 8601 time with an offset/);
    const unknown = await call('delay_create', {
      name: 'ghost',
      run_at: inMs(60_000),
      function: 'no_such_function',
    });
    expect(errorOf(unknown)).toMatch(
      /function: unknown function 'no_such_function'; available: .*delay_create/,
    );
    const badParams = await call('delay_create', {
      name: 'bad-params',
      run_at: inMs(60_000),
      function: fn.name,
      params: '{to: bob}',
    });
    expect(errorOf(badParams)).toMatch(/params: must be a JSON object/);
    const wrongParams = await call('cron_create', {
      name: 'wrong-params',
      cron_expr: '0 9 * * *',
      function: fn.name,
      params: '{"tag":7,"colour":"red"}',
    });
    expect(wrongParams).toMatchObject({ status: 'error', error: { code: 'invalid_params' } });
    const details = (wrongParams as { error: { details: { field: string }[] } }).error.details;
    expect(details.sort((x, y) => x.field.localeCompare(y.field))).toEqual([
      { field: 'params.colour', message: 'should not exist' },
      { field: 'params.tag', message: 'must be a string' },
    ]);
    const several = await call('cron_create', {
      name: 'has space',
      cron_expr: '0 9 * *',
      function: fn.name,
      timezone: 'Mars/Base',
    });
    expect(errorOf(several)).toMatch(/name: must match pattern/);
    // the schema first; what it cannot say (a known time zone, a real cron) once it passes, all at once
    const unknownZone = await call('cron_create', {
      name: 'mars',
      cron_expr: '0 9 * *',
      function: fn.name,
      timezone: 'Mars/Base',
    });
    expect(errorOf(unknownZone)).toMatch(/timezone: unknown time zone 'Mars\/Base'/);
  });

  it('refuses a bad cron expression, one too frequent, and an until already past', async () => {
    const fields = await call('cron_create', {
      name: 'four-fields',
      cron_expr: '0 9 * *',
      function: fn.name,
    });
    expect(errorOf(fields)).toMatch(/cron_expr: must have 5 fields .* got 4/);
    const range = await call('cron_create', {
      name: 'bad-minute',
      cron_expr: '61 9 * * *',
      function: fn.name,
    });
    expect(errorOf(range)).toMatch(/cron_expr: is not a valid cron expression: .*61/);
    const often = await call('cron_create', {
      name: 'too-often',
      cron_expr: '*/10 * * * * *',
      function: fn.name,
    });
    expect(errorOf(often)).toMatch(
      /cron_expr: fires every 10 s, more often than the shortest interval allowed \(1 min\)/,
    );
    const ended = await call('cron_create', {
      name: 'ended',
      cron_expr: '0 9 * * *',
      function: fn.name,
      until: '2020-01-01T00:00:00Z',
    });
    expect(errorOf(ended)).toMatch(/until: is in the past/);
  });

  it('creates, lists and deletes a cron in the time zone given', async () => {
    const created = await call('cron_create', {
      name: 'morning',
      cron_expr: '0 9 * * *',
      timezone: 'Asia/Shanghai',
      function: fn.name,
      max_runs: 5,
    });
    expect(created).toMatchObject({
      status: 'success',
      result: { data: { name: 'morning', timezone: 'Asia/Shanghai', max_runs: 5 } },
    });
    const next = (created as { result: { data: { next_run_at: string } } }).result.data.next_run_at;
    expect(new Date(next).getUTCHours()).toBe(1);
    const listed = await call('cron_list', { name: 'morn' });
    expect(listed).toMatchObject({
      status: 'success',
      result: { data: [{ name: 'morning', enabled: true }] },
    });
    expect(await call('cron_delete', { name: 'morning' })).toMatchObject({ status: 'success' });
    expect(errorOf(await call('cron_delete', { name: 'morning' }))).toMatch(/cron 'morning' not found/);
  });

  it("lists only the caller's delays, cancels only its own, and keeps an owner under the task limit", async () => {
    await call('delay_create', { name: 'bobs', run_at: inMs(3_600_000), function: fn.name }, 'bob');
    const alices = await call('delay_list', {});
    expect(
      (alices as { result: { data: { name: string }[] } }).result.data.map((r) => r.name).sort(),
    ).toEqual(['nudge', 'remind']);
    expect(errorOf(await call('delay_cancel', { name: 'bobs' }))).toBe("delay 'bobs' not found");
    expect(await call('delay_cancel', { name: 'nudge' })).toMatchObject({
      status: 'success',
      result: { data: { status: 'cancelled' } },
    });
    const pending = await call('delay_list', { status: 'pending' });
    expect((pending as { result: { data: unknown[] } }).result.data).toHaveLength(1);
    for (const name of ['q1', 'q2', 'q3'])
      await call('delay_create', { name, run_at: inMs(3_600_000), function: fn.name });
    const over = await call('delay_create', { name: 'q4', run_at: inMs(3_600_000), function: fn.name });
    expect(errorOf(over)).toMatch(/'alice' already has 4 active tasks, the most allowed \(4\)/);
  });

  it("does for a caller only what its key's scopes allow, and nothing without scopes", async () => {
    const readOnly = await call(
      'delay_create',
      { name: 'not-mine-to-make', run_at: inMs(60_000), function: fn.name },
      'erin',
      ['chat', 'tasks:read'],
    );
    expect(readOnly).toMatchObject({
      status: 'error',
      error: {
        code: 'forbidden',
        message: expect.stringMatching(/^delay_create needs the 'tasks:write' scope/),
      },
    });
    expect(await call('delay_list', {}, 'erin', ['chat', 'tasks:read'])).toMatchObject({ status: 'success' });
    expect(errorOf(await call('cron_list', {}, 'erin', ['chat']))).toMatch(
      /cron_list needs the 'tasks:read' scope/,
    );
    expect(errorOf(await call('delay_cancel', { name: 'remind' }, 'alice', ['tasks:read']))).toMatch(
      /delay_cancel needs the 'tasks:write' scope/,
    );
    const unscoped = await client.call(
      'cron_create',
      { name: 'unscoped', cron_expr: '0 9 * * *', function: fn.name },
      { timeoutMs: 5_000, caller: { kind: 'agent', principal: 'erin' } },
    );
    expect(errorOf(unscoped)).toMatch(/cron_create needs the 'tasks:write' scope/);
    expect(
      await call('delay_create', { name: 'admins', run_at: inMs(60_000), function: fn.name }, 'erin', [
        'admin',
      ]),
    ).toMatchObject({ status: 'success' });
    const erins = await scheduler.get(DelayTasksService).list({ owner: 'erin' });
    expect(erins.map((t) => t.name)).toEqual(['admins']);
  });

  it('pages delay_list and cron_list with offset and limit, in a stable order', async () => {
    const replies = await bus.gather(Routes.fnCatalog, 1_000);
    const definitions = replies.find((r) => r.provider === 'scheduler')!.functions;
    for (const name of ['delay_list', 'cron_list']) {
      const params = definitions.find((f) => f.name === name)!.parameters.properties;
      expect(Object.keys(params).slice(-2)).toEqual(['offset', 'limit']);
      expect(params.limit).toMatchObject({ type: 'integer', minimum: 1, maximum: 500, default: 100 });
    }
    const runAt = inMs(7_200_000);
    for (const name of ['p_c', 'p_a', 'p_b'])
      await call('delay_create', { name, run_at: runAt, function: fn.name }, 'carol');
    const names = (reply: FnExecReply) =>
      (reply as { result: { data: { name: string }[] } }).result.data.map((row) => row.name);
    const first = await call('delay_list', { limit: 2 }, 'carol');
    expect(names(first)).toEqual(['p_a', 'p_b']);
    expect(first).toMatchObject({ result: { message: '2 of 3 delay task(s), from offset 0' } });
    expect(names(await call('delay_list', { offset: 2, limit: 2 }, 'carol'))).toEqual(['p_c']);
    expect(errorOf(await call('delay_list', { limit: 0 }, 'carol'))).toMatch(/limit/);
    for (const name of ['c_b', 'c_a'])
      await call('cron_create', { name, cron_expr: '0 9 * * *', function: fn.name }, 'dave');
    expect(names(await call('cron_list', { offset: 1 }, 'dave'))).toEqual(['c_b']);
    expect(await call('cron_list', {}, 'dave')).toMatchObject({ result: { message: '2 cron task(s)' } });
  });
});
