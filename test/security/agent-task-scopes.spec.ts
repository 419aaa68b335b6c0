import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentRunReply, RunView } from '@app/contracts';
import { connectMigrated } from '@app/persistence';
import { REPO_ROOT, type ServiceProcess, startService } from '@app/testing';
import { type ChatStack, post, startChatStack } from '../chat/chat-stack';

const ADMIN_KEY = 'ac_task_scopes_admin_key_4f7a2c9e81d0';
const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
/** The JSON bodies these routes answer with, loosely. */
interface Body {
  error?: { code: string; message: string; details?: { field: string; message: string }[] };
  delays?: { name: string; owner: string }[];
  [key: string]: unknown;
}

const inAnHour = () => new Date(Date.now() + 3_600_000).toISOString();

/** The model's reply that schedules `name`, sending `params` to send_message an hour from now. */
const delayCreate = (name: string, params: string) =>
  `<call name="delay_create"><p>name: ${name}</p><p>run_at: ${inAnHour()}</p>` +
  `<p>function: send_message</p><p>params: ${params}</p></call>`;

// Tasks made by an agent for a caller, and by REST: the caller's scopes bound what the agent may
// do, the params are checked against the target function at creation, an admin sees and manages
// every owner's tasks. Gateway, executor, scheduler and function-runner processes; real NATS,
// Redis, SQLite; the scripted model.
describe("tasks within the caller's scopes, checked at creation, visible to admins", () => {
  let stack: ChatStack;
  const extra: ServiceProcess[] = [];

  const createKeyWithId = async (principal: string, scopes: string[]) => {
    const res = await post(
      stack.base,
      '/api/v1/keys',
      { name: principal, scopes, principal },
      bearer(ADMIN_KEY),
    );
    expect(res.status).toBe(201);
    return (await res.json()) as { key: string; id: string };
  };
  const createKey = async (principal: string, scopes: string[]) =>
    (await createKeyWithId(principal, scopes)).key;
  const request = async (method: string, path: string, key: string, body?: unknown) => {
    const res = await fetch(`${stack.base}/api/v1${path}`, {
      method,
      headers: { ...bearer(key), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Body };
  };
  const chat = async (key: string, message: string): Promise<AgentRunReply> => {
    const res = await post(stack.base, '/api/v1/chat', { message }, bearer(key));
    expect(res.status).toBe(200);
    return (await res.json()) as AgentRunReply;
  };
  const namesIn = (list: { name: string }[]) => list.map((t) => t.name);

  beforeAll(async () => {
    stack = await startChatStack({
      functions: [],
      agents: () => [{ name: 'planner', mode: 'plan', allowed_tools: ['delay_create'], plan_approval: true }],
      env: { AUTH_ENABLED: 'true', AC_ADMIN_KEY: ADMIN_KEY },
    });
    const env = { ...stack.env, SCHEDULER_QUEUE_PREFIX: `task-scopes-${randomUUID().slice(0, 8)}` };
    extra.push(
      ...(await Promise.all([startService('function-runner', env), startService('scheduler', env)])),
    );
  });
  afterAll(async () => {
    await Promise.all(extra.map((s) => s.stop()));
    await stack?.close();
  });

  it('refuses a REST delay whose params the function would refuse when it fires: 400 naming to', async () => {
    const key = await createKey('rita', ['tasks:read', 'tasks:write']);
    const res = await request('POST', '/delays', key, {
      name: 'no-params',
      run_at: inAnHour(),
      function: 'send_message',
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({
      code: 'invalid_params',
      message: expect.stringMatching(/params\.to: is required/),
    });
    expect(res.body.error?.details).toContainEqual({ field: 'params.to', message: 'is required' });
    expect((await request('GET', '/delays/no-params', ADMIN_KEY)).status).toBe(404);
  });

  it("tells the model which params are wrong, in the run's trace, and creates nothing", async () => {
    const key = await createKey('mona', ['chat', 'tasks:read', 'tasks:write']);
    stack.llm.setScript({
      replies: [
        delayCreate('bad-reminder', '{"message":"check the backups","colour":"red"}'),
        'I could not.',
      ],
    });
    const reply = await chat(key, 'remind ops in an hour');
    expect(reply.function_calls).toEqual([
      { name: 'delay_create', status: 'error', result: expect.objectContaining({ code: 'invalid_params' }) },
    ]);
    const run = (await request('GET', `/runs/${reply.run_id}`, key)).body as unknown as RunView;
    const action = run.trace.find((step) => step.action?.tool === 'delay_create');
    expect(action?.observation).toMatch(/params\.to: is required/);
    expect(action?.observation).toMatch(/params\.colour: should not exist/);
    expect((await request('GET', '/delays/bad-reminder', ADMIN_KEY)).status).toBe(404);
  });

  it("refuses delay_create to a chat-only key's agent, naming tasks:write, and creates nothing", async () => {
    const key = await createKey('carl', ['chat']);
    stack.llm.setScript({
      replies: [delayCreate('sneaky', '{"to":"ops","message":"hello"}'), 'I may not do that.'],
    });
    const reply = await chat(key, 'remind ops in an hour');
    expect(reply.function_calls).toEqual([
      {
        name: 'delay_create',
        status: 'error',
        result: expect.objectContaining({
          code: 'forbidden',
          message: expect.stringMatching(/'tasks:write'/),
        }),
      },
    ]);
    expect((await request('GET', '/delays/sneaky', ADMIN_KEY)).status).toBe(404);
    expect(namesIn((await request('GET', '/delays', ADMIN_KEY)).body.delays ?? [])).not.toContain('sneaky');
  });

  it('refuses the same through a direct invocation: no path goes around the scopes', async () => {
    const key = await createKey('ivan', ['functions:invoke']);
    const res = await request('POST', '/functions/delay_create/invoke', key, {
      params: {
        name: 'invoked',
        run_at: inAnHour(),
        function: 'send_message',
        params: '{"to":"a","message":"b"}',
      },
    });
    expect(res).toMatchObject({
      status: 403,
      body: { error: { code: 'forbidden', message: expect.stringMatching(/'tasks:write'/) } },
    });
    expect((await request('GET', '/delays/invoked', ADMIN_KEY)).status).toBe(404);
  });

  it('shows an agent-made delay to its caller and to an admin, with its owner; the admin can cancel it', async () => {
    const key = await createKey('fay', ['chat', 'tasks:read', 'tasks:write']);
    stack.llm.setScript({
      replies: [delayCreate('fays-reminder', '{"to":"ops","message":"check the backups"}'), 'Scheduled.'],
    });
    const reply = await chat(key, 'remind ops in an hour');
    expect(reply.function_calls).toEqual([
      expect.objectContaining({ name: 'delay_create', status: 'success' }),
    ]);

    expect((await request('GET', '/delays/fays-reminder', key)).body).toMatchObject({
      owner: 'fay',
      status: 'pending',
    });
    expect((await request('GET', '/delays', key)).body.delays).toEqual([
      expect.objectContaining({ name: 'fays-reminder', owner: 'fay' }),
    ]);
    const everyone = (await request('GET', '/delays', ADMIN_KEY)).body.delays;
    expect(everyone).toContainEqual(expect.objectContaining({ name: 'fays-reminder', owner: 'fay' }));
    expect((await request('GET', '/delays?owner=fay', ADMIN_KEY)).body.delays).toEqual([
      expect.objectContaining({ name: 'fays-reminder', owner: 'fay' }),
    ]);
    expect((await request('GET', '/delays?owner=admin', key)).status).toBe(403);
    expect((await request('GET', '/delays/fays-reminder', ADMIN_KEY)).body).toMatchObject({ owner: 'fay' });

    const cancelled = await request('DELETE', '/delays/fays-reminder', ADMIN_KEY);
    expect(cancelled).toMatchObject({
      status: 200,
      body: { name: 'fays-reminder', owner: 'fay', status: 'cancelled' },
    });
    expect((await request('GET', '/delays/fays-reminder', key)).body.status).toBe('cancelled');
  });

  it('records on each task the key that created it, by REST or through its agent: the runs it fires count against it', async () => {
    const { key, id } = await createKeyWithId('kai', ['chat', 'tasks:read', 'tasks:write']);
    const rest = await request('POST', '/delays', key, {
      name: 'kais-rest-reminder',
      run_at: inAnHour(),
      function: 'send_message',
      params: { to: 'ops', message: 'by REST' },
    });
    expect(rest.status).toBe(201);
    stack.llm.setScript({
      replies: [delayCreate('kais-agent-reminder', '{"to":"ops","message":"by the agent"}'), 'Scheduled.'],
    });
    expect((await chat(key, 'remind ops in an hour')).function_calls).toEqual([
      expect.objectContaining({ name: 'delay_create', status: 'success' }),
    ]);
    const { db } = await connectMigrated(stack.env.DATABASE_URL, REPO_ROOT);
    try {
      const rows = await db.delayTask.findMany({
        where: { name: { in: ['kais-rest-reminder', 'kais-agent-reminder'] } },
        select: { name: true, key_id: true },
        orderBy: { name: 'asc' },
      });
      expect(rows).toEqual([
        { name: 'kais-agent-reminder', key_id: id },
        { name: 'kais-rest-reminder', key_id: id },
      ]);
    } finally {
      await db.$disconnect();
    }
  });

  it("bounds an approved plan's calls by the approving key's scopes too", async () => {
    const step = (name: string) =>
      JSON.stringify({
        steps: [
          {
            description: 'schedule the reminder',
            tool: 'delay_create',
            params: {
              name,
              run_at: inAnHour(),
              function: 'send_message',
              params: '{"to":"ops","message":"hi"}',
            },
          },
        ],
      });
    const planAndApprove = async (key: string, name: string) => {
      stack.llm.setScript({ replies: [step(name), 'Done.'] });
      const paused = await post(
        stack.base,
        '/api/v1/chat',
        { message: 'remind ops', agent: 'planner' },
        bearer(key),
      );
      const { run_id: runId, finish_reason } = (await paused.json()) as AgentRunReply;
      expect(finish_reason).toBe('awaiting_approval');
      const approved = await post(stack.base, `/api/v1/runs/${runId}/approve`, undefined, bearer(key));
      expect(approved.status).toBe(200);
      return (await approved.json()) as AgentRunReply;
    };
    const chatOnly = await planAndApprove(await createKey('pat', ['chat']), 'pats-plan');
    expect(JSON.stringify(chatOnly.function_calls)).toMatch(/delay_create needs the 'tasks:write' scope/);
    expect((await request('GET', '/delays/pats-plan', ADMIN_KEY)).status).toBe(404);
    const writer = await planAndApprove(await createKey('pia', ['chat', 'tasks:write']), 'pias-plan');
    expect(writer.function_calls).toEqual([
      expect.objectContaining({ name: 'delay_create', status: 'success' }),
    ]);
    expect((await request('GET', '/delays/pias-plan', ADMIN_KEY)).body).toMatchObject({ owner: 'pia' });
  });
});
