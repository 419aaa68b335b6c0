import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Bus } from '@app/bus';
import { Routes } from '@app/contracts';
import { type AgentFunction, FunctionClient, FunctionHost, FunctionRegistry, Param } from '@app/functions';
import { Logger } from '@app/observability';
import { connectMigrated, type Db, openSqlWriter, type SqlWriter } from '@app/persistence';
import { expectEventually, MIGRATED_DATABASES, REPO_ROOT } from '@app/testing';
import { FunctionCallRecorder } from './function-call.recorder';
import { FunctionCallRepository } from '../store/function-call.repository';

const url = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const quiet = new Logger({ service: 'test', level: 'error', format: 'json', write: () => undefined });

class LoginParams {
  @Param({ description: 'user', required: true }) user!: string;
  @Param({ description: 'password' }) password?: string;
}

const loginAs = (name: string): AgentFunction<LoginParams> => ({
  name,
  description: 'logs in',
  params: LoginParams,
  execute: async (p) => {
    if (p.user === 'mallory') throw new Error('account locked');
    return { message: 'ok' };
  },
});

describe.each(MIGRATED_DATABASES)('FunctionCallRecorder (real NATS, $name)', ({ name, create }) => {
  const ns = `r${Date.now().toString(36)}${process.pid}${name.slice(0, 2).toLowerCase()}`;
  const login = loginAs(`${ns}_login`);
  let db: Db;
  let drop: () => Promise<void>;
  let writer: SqlWriter;
  let hostBus: Bus;
  let recorderBus: Bus;
  let host: FunctionHost;
  let client: FunctionClient;

  beforeAll(async () => {
    const database = await create();
    drop = database.drop;
    db = (await connectMigrated(database.url, REPO_ROOT)).db;
    writer = openSqlWriter(database.url, db);
    await db.session.create({ data: { id: `${ns}-s`, owner: 'p1' } });
    await db.run.create({ data: { id: `${ns}-run`, session_id: `${ns}-s`, agent: 'default', input: 'hi' } });
    recorderBus = await Bus.connect({ url, name: 'recorder-spec' });
    const recorder = new FunctionCallRecorder(recorderBus, new FunctionCallRepository(writer));
    // a queue group of its own: every batch, not a share of the recorders' group other executors may be in
    recorderBus.serve(Routes.fnCallsRecord, (batch) => recorder.record(batch), { queue: `rec-${ns}` });
    await recorderBus.flush();
    hostBus = await Bus.connect({ url, name: 'recorder-spec-host' });
    const registry = new FunctionRegistry(5_000);
    registry.setGroup('builtin', [login as AgentFunction]);
    host = new FunctionHost({
      bus: hostBus,
      registry,
      logger: quiet,
      provider: `rec-${ns}`,
      instance: 'i1',
      concurrency: 4,
    });
    await host.start();
    client = new FunctionClient(hostBus);
  });
  afterAll(async () => {
    await host.stop(100);
    await hostBus.drain();
    await recorderBus.drain();
    await writer.close();
    await db.$disconnect();
    await drop();
  });

  it('records each call with its caller, status, time, error and a redacted params summary', async () => {
    await client.call(
      login.name,
      { user: 'ada', password: 'hunter2' },
      { timeoutMs: 2_000, callId: `${ns}-ok`, caller: { kind: 'agent', run_id: `${ns}-run`, agent: 'ops' } },
    );
    await client.call(
      login.name,
      { user: 'mallory' },
      { timeoutMs: 2_000, callId: `${ns}-err`, caller: { kind: 'api', principal: 'key-1' } },
    );
    const rows = await expectEventually(async () => {
      const found = await db.functionCall.findMany({
        where: { name: login.name },
        orderBy: { created_at: 'asc' },
      });
      expect(found).toHaveLength(2);
      return found;
    });
    expect(rows[0]).toMatchObject({
      id: `${ns}-ok`,
      caller_kind: 'agent',
      run_id: `${ns}-run`,
      status: 'success',
      error: null,
    });
    expect(rows[0].caller).toMatchObject({ agent: 'ops', run_id: `${ns}-run` });
    expect(rows[0].params_summary).toBe('user="ada", password=***');
    expect(rows[0].elapsed_ms).toBeGreaterThanOrEqual(0);
    expect(rows[1]).toMatchObject({
      id: `${ns}-err`,
      caller_kind: 'api',
      run_id: null,
      status: 'error',
      error: 'function_error: account locked',
    });
  });

  it('keeps a run id that has no Run row in the caller only, and skips a call id it already has', async () => {
    const recorder = new FunctionCallRecorder(recorderBus, new FunctionCallRepository(writer));
    const call = {
      id: `${ns}-orphan`,
      name: login.name,
      provider: 'p',
      instance: 'i',
      caller: { kind: 'agent', run_id: 'no-such-run' },
      status: 'timeout',
      error_code: 'timeout',
      error: 'too slow',
      elapsed_ms: 5,
      params_summary: '',
      finished_at: Date.now(),
    };
    const batch = (calls: unknown[]) => Routes.fnCallsRecord.parse({ calls });
    expect(await recorder.record(batch([call]))).toEqual({ recorded: 1 });
    expect(await recorder.record(batch([call, { ...call, id: `${ns}-second` }]))).toEqual({
      recorded: 1,
    });
    const orphan = await db.functionCall.findUniqueOrThrow({ where: { id: `${ns}-orphan` } });
    expect(orphan).toMatchObject({ run_id: null, status: 'timeout', caller: { run_id: 'no-such-run' } });
  });

  it('refuses a malformed batch, naming the fields', () => {
    expect(() =>
      Routes.fnCallsRecord.parse({ calls: [{ id: 'x', name: 'Bad Name', status: 'maybe' }] }),
    ).toThrow(expect.objectContaining({ code: 'invalid_params' }));
  });
});
