import { type DynamicModule, Global, Module } from '@nestjs/common';
import { APP_FILTER, NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Bus } from '@app/bus';
import { loadConfig } from '@app/config';
import { NotFoundError, type Route, Subjects } from '@app/contracts';
import { Logger } from '@app/observability';
import type { Principal } from '../auth/api-keys.service';
import type { AuthenticatedRequest } from '../auth/auth.guard';
import { configureHttp } from '../common/http-app';
import { ErrorShapes } from '../common/error-shapes';
import { HttpErrorFilter } from '../common/http-error.filter';
import { TasksModule } from './tasks.module';

const quiet = new Logger({ service: 'test', level: 'error', format: 'json', write: () => undefined });

/** Stands in for the scheduler on the bus: records what the routes send, answers as told. */
class SchedulerOnTheBus {
  sent: { subject: string; body: Record<string, unknown> }[] = [];
  answer: (subject: string, body: Record<string, unknown>) => unknown = (_s, body) => body;

  async request<T>({ subject }: Route, body: Record<string, unknown>): Promise<T> {
    this.sent.push({ subject, body });
    return this.answer(subject, body) as T;
  }
}

const ALICE: Principal = { keyId: 'k1', principal: 'alice', scopes: ['tasks:read', 'tasks:write'] };
const ADMIN: Principal = { keyId: 'k0', principal: 'admin', scopes: ['admin'] };

describe('the task routes (gateway side: parse, relay with the caller as owner)', () => {
  const scheduler = new SchedulerOnTheBus();
  let caller = ALICE;
  let app: NestExpressApplication;
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
    @Global()
    @Module({
      providers: [
        { provide: Bus, useValue: scheduler },
        { provide: Logger, useValue: quiet },
      ],
      exports: [Bus, Logger],
    })
    class BusStub {}
    @Module({})
    class TestGateway {
      static root(): DynamicModule {
        return {
          module: TestGateway,
          imports: [BusStub, TasksModule],
          providers: [ErrorShapes, { provide: APP_FILTER, useClass: HttpErrorFilter }],
        };
      }
    }
    app = await NestFactory.create<NestExpressApplication>(TestGateway.root(), {
      logger: quiet,
      bodyParser: false,
    });
    app.use((req: AuthenticatedRequest, _res: unknown, next: () => void) => {
      req.principal = caller;
      next();
    });
    [base] = await configureHttp(app, loadConfig({ PORT: '0', HOST: '127.0.0.1' }));
  });
  afterAll(() => app.close());
  beforeEach(() => {
    caller = ALICE;
    scheduler.sent = [];
    scheduler.answer = (_s, body) => body;
  });

  it("relays a new delay with the caller's principal as its owner, and its key as the one it counts against", async () => {
    const body = {
      name: 'd1',
      run_at: '2030-01-01T09:00:00+08:00',
      function: 'send_message',
      params: { to: 'bob' },
    };
    expect(await http('POST', '/delays', body)).toMatchObject({ status: 201 });
    expect(scheduler.sent).toEqual([
      { subject: Subjects.schedulerDelayCreate, body: { ...body, owner: 'alice', key_id: 'k1' } },
    ]);
  });

  it('refuses an owner in the body: only the credentials say who owns a task', async () => {
    const res = await http('POST', '/crons', {
      name: 'c1',
      cron_expr: '0 9 * * *',
      function: 'f',
      owner: 'bob',
    });
    expect(res).toMatchObject({
      status: 400,
      body: { error: { code: 'invalid_params', details: [{ field: 'owner' }] } },
    });
    expect(scheduler.sent).toEqual([]);
  });

  it('passes list filters and wraps lists in an object', async () => {
    scheduler.answer = () => [{ name: 'd1' }];
    expect(await http('GET', '/delays?status=pending')).toEqual({
      status: 200,
      body: { delays: [{ name: 'd1' }] },
    });
    expect(await http('GET', '/crons?name=morn')).toEqual({ status: 200, body: { crons: [{ name: 'd1' }] } });
    expect(scheduler.sent.map((m) => m.body)).toEqual([
      { status: 'pending', owner: 'alice' },
      { name: 'morn', owner: 'alice' },
    ]);
  });

  it("maps the scheduler's errors to HTTP statuses", async () => {
    scheduler.answer = (_s, body) => {
      throw new NotFoundError('cron', String(body.name));
    };
    expect(await http('GET', '/crons/nope')).toMatchObject({
      status: 404,
      body: { error: { code: 'not_found', message: "cron 'nope' not found" } },
    });
    expect(await http('DELETE', '/delays/nope')).toMatchObject({ status: 404 });
    expect(scheduler.sent.map((m) => m.subject)).toEqual([
      Subjects.schedulerCronGet,
      Subjects.schedulerDelayCancel,
    ]);
  });

  it("lets an admin list every owner's tasks, or one owner's with ?owner=", async () => {
    caller = ADMIN;
    scheduler.answer = () => [];
    expect(await http('GET', '/delays')).toMatchObject({ status: 200 });
    expect(await http('GET', '/delays?owner=alice&status=pending')).toMatchObject({ status: 200 });
    expect(await http('GET', '/crons?owner=bob')).toMatchObject({ status: 200 });
    expect(scheduler.sent.map((m) => m.body)).toEqual([
      {},
      { owner: 'alice', status: 'pending' },
      { owner: 'bob' },
    ]);
  });

  it("refuses another owner's filter to anyone but an admin (403), and a malformed one (400)", async () => {
    expect(await http('GET', '/delays?owner=bob')).toMatchObject({
      status: 403,
      body: { error: { code: 'forbidden', message: "only an admin key may list another principal's tasks" } },
    });
    expect(await http('GET', '/crons?owner=alice')).toMatchObject({ status: 200 });
    caller = ADMIN;
    expect(await http('GET', '/crons?owner=a%20b')).toMatchObject({
      status: 400,
      body: { error: { details: [{ field: 'owner' }] } },
    });
    expect(scheduler.sent.map((m) => m.body)).toEqual([{ owner: 'alice' }]);
  });

  it("finds and cancels any owner's task by name for an admin, only the caller's own for anyone else", async () => {
    caller = ADMIN;
    await http('GET', '/delays/d1');
    await http('DELETE', '/crons/c1');
    caller = ALICE;
    await http('DELETE', '/delays/d1');
    expect(scheduler.sent.map((m) => m.body)).toEqual([
      { name: 'd1' },
      { name: 'c1' },
      { name: 'd1', owner: 'alice' },
    ]);
  });
});
