import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentRunReply } from '@app/contracts';
import { expectEventually, type ServiceProcess, startService } from '@app/testing';
import { type ChatStack, post, startChatStack } from './chat-stack';

const ADMIN_KEY = 'ac_reminder_admin_key_6e1f0b93d2c4';
const auth = { authorization: `Bearer ${ADMIN_KEY}` };

describe('a conversation that schedules a reminder (gateway, executor, scheduler and runner processes)', () => {
  let stack: ChatStack;
  let runner: ServiceProcess;
  const extra: ServiceProcess[] = [];

  beforeAll(async () => {
    stack = await startChatStack({
      functions: [],
      agents: () => [],
      env: { AUTH_ENABLED: 'true', AC_ADMIN_KEY: ADMIN_KEY },
    });
    const env = { ...stack.env, SCHEDULER_QUEUE_PREFIX: `reminder-${randomUUID().slice(0, 8)}` };
    [runner] = await Promise.all([startService('function-runner', env), startService('scheduler', env)]).then(
      (started) => {
        extra.push(...started);
        return started;
      },
    );
  });
  afterAll(async () => {
    await Promise.all(extra.map((s) => s.stop()));
    await stack?.close();
  });

  it('creates a delay through delay_create, owned by the caller, that fires send_message', async () => {
    // far enough ahead that a loaded machine still creates it before its time (a past run_at is refused)
    const runAt = new Date(Date.now() + 8_000).toISOString();
    stack.llm.setScript({
      replies: [
        `I will set that up.<call name="delay_create"><p>name: remind-ops</p><p>run_at: ${runAt}</p>` +
          `<p>function: send_message</p><p>params: {"to":"ops","message":"check the backups"}</p></call>`,
        'Done: ops will be reminded in two seconds.',
      ],
    });
    const res = await post(
      stack.base,
      '/api/v1/chat',
      { message: 'remind ops in 2 seconds to check the backups' },
      auth,
    );
    expect(res.status).toBe(200);
    const reply = (await res.json()) as AgentRunReply;
    expect(reply.function_calls).toEqual([
      expect.objectContaining({ name: 'delay_create', status: 'success' }),
    ]);
    expect(reply.finish_reason).toBe('final');

    const task = await expectEventually(
      async () => {
        const view = (await (
          await fetch(`${stack.base}/api/v1/delays/remind-ops`, { headers: auth })
        ).json()) as Record<string, unknown>;
        expect(view.status).toBe('completed');
        return view;
      },
      { timeoutMs: 30_000 },
    );
    expect(task).toMatchObject({ function: 'send_message', owner: 'admin' });
    expect(runner.output()).toMatch(/message for ops: check the backups/);
  });
});
