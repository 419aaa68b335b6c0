// POST /api/v1/runs: the caller's own plan, checked whole, then carried out like a model's plan.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentRunReply, RunView, SessionView } from '@app/contracts';
import { MIGRATED_DATABASES } from '@app/testing';
import { add, type ChatStack, post, readEvents, startChatStack } from '../chat/chat-stack';

const notes: string[] = [];
const note = {
  name: 'note_write',
  params: { to: { type: 'string' as const }, text: { type: 'string' as const } },
  required: ['to', 'text'],
  run: ({ to, text }: Record<string, unknown>) => {
    notes.push(`${String(to)}: ${String(text)}`);
    return { data: { written: true } };
  },
};
const secret = { name: 'secret_read', run: () => ({ data: { secret: 'never' } }) };
const step = (tool: string, parameters: Record<string, unknown>, description = `call ${tool}`) => ({
  description,
  tool,
  parameters,
});

describe.each(MIGRATED_DATABASES)(
  "the caller's own plan on $name (gateway and executor processes)",
  (database) => {
    let stack: ChatStack;
    let drop: () => Promise<void>;
    const run = (body: Record<string, unknown>, headers: Record<string, string> = {}) =>
      post(stack.base, '/api/v1/runs', body, headers);

    beforeAll(async () => {
      const created = await database.create();
      drop = created.drop;
      stack = await startChatStack({
        functions: [add, note, secret],
        agents: () => [
          { name: 'scribe', allowed_tools: ['add', 'note_*'], max_steps: 4, step_failure: 'abort' },
        ],
        env: { DATABASE_URL: created.url },
      });
    });
    afterAll(async () => {
      await stack?.close();
      await drop?.();
    });

    it('runs the steps in order, answers with one model call, and records the run in its session', async () => {
      stack.llm.setScript({ fallback: 'Sum 5; the note is written.' });
      stack.llm.clearRequests();
      notes.length = 0;
      const res = await run({
        agent: 'scribe',
        message: 'Add and tell Ann',
        plan: {
          steps: [step('add', { a: 2, b: 3 }), step('note_write', { to: 'ann', text: 'the sum is 5' })],
        },
      });
      expect(res.status).toBe(200);
      const reply = (await res.json()) as AgentRunReply;
      expect(reply).toMatchObject({ finish_reason: 'final', reply: 'Sum 5; the note is written.' });
      expect(reply.function_calls.map((c) => [c.name, c.status])).toEqual([
        ['add', 'success'],
        ['note_write', 'success'],
      ]);
      expect(notes).toEqual(['ann: the sum is 5']);
      expect(stack.llm.requests()).toHaveLength(1);

      const view = (await (await fetch(`${stack.base}/api/v1/runs/${reply.run_id}`)).json()) as RunView;
      expect(view).toMatchObject({ mode: 'plan', status: 'completed', session_id: reply.session_id });
      expect(view.trace.map((s) => [s.kind, s.action?.tool])).toEqual([
        ['plan_step', 'add'],
        ['plan_step', 'note_write'],
        ['summary', undefined],
      ]);
      expect(view.plan?.steps.map((s) => [s.tool, s.status])).toEqual([
        ['add', 'completed'],
        ['note_write', 'completed'],
      ]);
      const session = (await (
        await fetch(`${stack.base}/api/v1/sessions/${reply.session_id}`)
      ).json()) as SessionView;
      expect(session.messages.map((m) => m.content)).toEqual([
        'Add and tell Ann',
        'Sum 5; the note is written.',
      ]);
    });

    it('streams like chat: run_start, the plan, each step with its call, the answer, run_end', async () => {
      stack.llm.setScript({ fallback: 'Done.' });
      const res = await run(
        { agent: 'scribe', plan: { steps: [step('add', { a: 1, b: 1 })] } },
        {
          accept: 'text/event-stream',
        },
      );
      expect(res.headers.get('content-type')).toContain('text/event-stream');
      const events = await readEvents(res);
      expect(events.map((e) => e.event).filter((e) => e !== 'delta')).toEqual([
        'run_start',
        'plan',
        'step',
        'tool_call',
        'tool_result',
        'step',
        'run_end',
      ]);
      expect(events.at(-1)?.data).toMatchObject({ finish_reason: 'final', reply: 'Done.' });
    });

    it('is safe to retry with an Idempotency-Key: the same plan gets the same run, run once', async () => {
      stack.llm.setScript({ fallback: 'Noted.' });
      notes.length = 0;
      const body = { agent: 'scribe', plan: { steps: [step('note_write', { to: 'bo', text: 'once' })] } };
      const headers = { 'idempotency-key': `plan-${Date.now()}` };
      const first = (await (await run(body, headers)).json()) as AgentRunReply;
      const again = (await (await run(body, headers)).json()) as AgentRunReply;
      expect(again.run_id).toBe(first.run_id);
      expect(notes).toEqual(['bo: once']);
      const other = await run(
        { ...body, plan: { steps: [step('note_write', { to: 'bo', text: 'twice' })] } },
        headers,
      );
      expect(other.status).toBe(409);
    });

    it('refuses a bad plan whole, naming every bad step, and runs nothing', async () => {
      const before = stack.functions.calls.length;
      const res = await run({
        agent: 'scribe',
        plan: {
          steps: [
            step('add', { a: 1, b: 2 }),
            step('no_such_fn', {}),
            step('note_write', { text: 'hi' }),
            step('add', { a: 'one', b: 2 }),
            step('add', { a: 1, b: 1 }),
          ],
        },
      });
      expect(res.status).toBe(400);
      const { error } = (await res.json()) as { error: { code: string; details: { field: string }[] } };
      expect(error.code).toBe('invalid_params');
      expect(error.details.map((d) => d.field)).toEqual([
        'plan.steps',
        'plan.steps[1].tool',
        'plan.steps[2].parameters.to',
        'plan.steps[3].parameters.a',
      ]);
      expect(stack.functions.calls.length).toBe(before);
      const empty = await run({ agent: 'scribe', plan: { steps: [] } });
      expect(empty.status).toBe(400);
      expect(JSON.stringify(await empty.json())).toContain('plan.steps');
    });

    it("enforces the agent's allow-list: a function it may not call is refused, not run", async () => {
      const before = stack.functions.calls.length;
      const res = await run({ agent: 'scribe', plan: { steps: [step('secret_read', {})] } });
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({
        error: {
          details: [
            {
              field: 'plan.steps[0].tool',
              message: "'secret_read' is not a function agent 'scribe' may call",
            },
          ],
        },
      });
      expect(stack.functions.calls.length).toBe(before);
    });
  },
);
