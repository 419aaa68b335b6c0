import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectEventually } from '@app/testing';
import { type CountingFunction, DATABASES } from '../../apps/scheduler/src/testing/scheduler.harness';
import { type SchedulerStack, schedulerStack } from './support/scheduler-stack';

// The REST routes, end to end: HTTP → gateway → NATS → scheduler → database and BullMQ → fn.exec.
describe('the /api/v1/delays and /api/v1/crons routes (gateway and scheduler processes)', () => {
  let stack: SchedulerStack;
  let fn: CountingFunction;
  let base = '';

  const http = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${base}/api/v1${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Record<string, any> };
  };

  beforeAll(async () => {
    stack = await schedulerStack(DATABASES[0]);
    fn = await stack.countingFunction();
    await stack.startScheduler();
    base = await stack.startGateway();
  });
  afterAll(() => stack.close());

  it('creates a delay with the documented parameter names (201), shows it, and runs it', async () => {
    const runAt = new Date(Date.now() + 1_000).toISOString();
    const created = await http('POST', '/delays', {
      name: 'rest-delay',
      run_at: runAt,
      function: fn.name,
      params: { tag: 'rest' },
    });
    expect(created).toMatchObject({
      status: 201,
      body: { name: 'rest-delay', status: 'pending', function: fn.name, params: { tag: 'rest' } },
    });
    expect((await http('GET', '/delays/rest-delay')).body).toMatchObject({
      name: 'rest-delay',
      run_at: runAt,
    });
    await expectEventually(async () =>
      expect((await http('GET', '/delays/rest-delay')).body.status).toBe('completed'),
    );
    expect(fn.callsTagged('rest')).toHaveLength(1);
    const completed = await http('GET', '/delays?status=completed');
    expect(completed.body.delays.map((d: { name: string }) => d.name)).toEqual(['rest-delay']);
  });

  it('answers bad input with 400 listing each field, a duplicate with 409, an unknown name with 404', async () => {
    const bad = await http('POST', '/delays', { name: 'x y', run_at: 'tomorrow', owner: 'mallory' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('invalid_params');
    expect(bad.body.error.details.map((f: { field: string }) => f.field).sort()).toEqual([
      'name',
      'owner',
      'run_at',
    ]);
    const past = await http('POST', '/delays', {
      name: 'late',
      run_at: '2020-01-01T00:00:00Z',
      function: fn.name,
    });
    expect(past).toMatchObject({
      status: 400,
      body: { error: { code: 'invalid_params', message: expect.stringMatching(/run_at: is in the past/) } },
    });
    const duplicate = await http('POST', '/delays', {
      name: 'rest-delay',
      run_at: new Date(Date.now() + 60_000).toISOString(),
      function: fn.name,
    });
    expect(duplicate).toMatchObject({ status: 409, body: { error: { code: 'conflict' } } });
    expect(await http('GET', '/delays/nope')).toMatchObject({
      status: 404,
      body: { error: { code: 'not_found', message: "delay 'nope' not found" } },
    });
    expect((await http('GET', '/delays?status=later')).status).toBe(400);
    expect(
      (await http('POST', '/crons', { name: 'c', cron_expr: 'every day', function: fn.name })).status,
    ).toBe(400);
  });

  it('cancels a pending delay (200), and refuses to cancel it twice (409)', async () => {
    await http('POST', '/delays', {
      name: 'rest-cancel',
      run_at: new Date(Date.now() + 60_000).toISOString(),
      function: fn.name,
    });
    expect(await http('DELETE', '/delays/rest-cancel')).toMatchObject({
      status: 200,
      body: { status: 'cancelled' },
    });
    expect(await http('DELETE', '/delays/rest-cancel')).toMatchObject({
      status: 409,
      body: { error: { code: 'conflict' } },
    });
    expect((await http('DELETE', '/delays/nope')).status).toBe(404);
  });

  it('creates a cron, shows it with its recent fires, lists and deletes it', async () => {
    const created = await http('POST', '/crons', {
      name: 'rest-cron',
      cron_expr: '* * * * * *',
      function: fn.name,
      params: '{"tag":"rest-cron"}',
      max_runs: 2,
    });
    expect(created).toMatchObject({
      status: 201,
      body: { name: 'rest-cron', timezone: 'UTC', enabled: true, max_runs: 2 },
    });
    const detail = await expectEventually(async () => {
      const { body } = await http('GET', '/crons/rest-cron');
      expect(body.enabled).toBe(false);
      return body;
    });
    expect(detail).toMatchObject({ run_count: 2, last_status: 'completed' });
    expect(detail.recent_fires.map((f: { status: string }) => f.status)).toEqual(['completed', 'completed']);
    expect((await http('GET', '/crons?name=rest')).body.crons.map((c: { name: string }) => c.name)).toEqual([
      'rest-cron',
    ]);
    expect(await http('DELETE', '/crons/rest-cron')).toMatchObject({
      status: 200,
      body: { name: 'rest-cron' },
    });
    expect((await http('GET', '/crons/rest-cron')).status).toBe(404);
  });
});
