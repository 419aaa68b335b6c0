// A scheduled task whose function is an agent (`agent_helper`): the scheduler fires it over
// fn.exec like any function and the agent runs for the task's owner. Gateway, executor and
// scheduler processes; real NATS (JetStream), Redis and SQLite; the scripted model.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunPage, RunView } from '@app/contracts';
import { expectEventually, type ServiceProcess, startService } from '@app/testing';
import { type ChatStack, post, startChatStack } from '../chat/chat-stack';

const ADMIN_KEY = 'ac_scheduled_agent_admin_key_51c0e7b2d9a4';
const auth = { authorization: `Bearer ${ADMIN_KEY}` };

describe('a delay that calls an agent', () => {
  let stack: ChatStack;
  let scheduler: ServiceProcess | undefined;

  beforeAll(async () => {
    stack = await startChatStack({
      functions: [],
      agents: () => [{ name: 'helper', description: 'Answers questions.', expose_as_function: true }],
      env: { AUTH_ENABLED: 'true', AC_ADMIN_KEY: ADMIN_KEY },
    });
    const env = { ...stack.env, SCHEDULER_QUEUE_PREFIX: `agent-delay-${randomUUID().slice(0, 8)}` };
    scheduler = await startService('scheduler', env);
  });
  afterAll(async () => {
    await scheduler?.stop();
    await stack?.close();
  });

  it('fires the agent at its time, and the task completes', async () => {
    stack.llm.setScript({ rules: [{ match: 'nightly-report', reply: 'report written' }] });
    const res = await post(
      stack.base,
      '/api/v1/delays',
      {
        name: 'ask-helper',
        run_at: new Date(Date.now() + 1_000).toISOString(),
        function: 'agent_helper',
        params: { message: 'nightly-report' },
      },
      auth,
    );
    expect(res.status).toBe(201);
    await expectEventually(
      async () => {
        const page = (await (
          await fetch(`${stack.base}/api/v1/runs?agent=helper`, { headers: auth })
        ).json()) as RunPage;
        expect(page.items.length).toBe(1);
        const run = (await (
          await fetch(`${stack.base}/api/v1/runs/${page.items[0].id}`, { headers: auth })
        ).json()) as RunView;
        // the run is listed from its start: wait for its answer
        expect(run).toMatchObject({ agent: 'helper', reply: 'report written', parent_run_id: null });
      },
      { timeoutMs: 15_000 },
    );
    await expectEventually(async () => {
      const task = (await (
        await fetch(`${stack.base}/api/v1/delays/ask-helper`, { headers: auth })
      ).json()) as {
        status: string;
      };
      expect(task.status).toBe('completed');
    });
  });
});
