import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentChassisClient, type ChatEvent } from '@app/client';
import type { PendingApproval, RunView } from '@app/contracts';
import { expectEventually } from '@app/testing';
import { ADMIN_KEY, addCall, type ClientStack, startClientStack } from './client-stack';

// Each event type of a run, as the typed client's chatStream yields it from a real gateway (the
// takeover's run_resumed is in test/durable/takeover.spec.ts, which kills an executor for it).
describe('chatStream against the four services: every event type reaches the caller', () => {
  let stack: ClientStack;
  let client: AgentChassisClient;

  beforeAll(async () => {
    stack = await startClientStack();
    client = new AgentChassisClient({ baseUrl: stack.base, apiKey: ADMIN_KEY });
  });
  afterAll(() => stack?.close());

  const collect = async (events: AsyncIterable<ChatEvent>, onEvent?: (event: ChatEvent) => void) => {
    const out: ChatEvent[] = [];
    for await (const event of events) {
      out.push(event);
      onEvent?.(event);
    }
    return out;
  };
  const types = (events: ChatEvent[]) => events.map((event) => event.type);
  const join = (runId: string, message: string) =>
    fetch(`${stack.base}/api/v1/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN_KEY}` },
      body: JSON.stringify({ message, run_id: runId }),
    });

  it('a turn: run_start, thought, tool_call, tool_result, delta, run_end', async () => {
    stack.llm.setScript({ replies: [`Let me add.${addCall(2, 3)}`, 'Five.'] });
    const events = await collect(client.chatStream({ message: 'Two plus three?' }));
    expect(types(events)).toEqual(['run_start', 'thought', 'tool_call', 'tool_result', 'delta', 'run_end']);
    expect(events.at(-1)).toMatchObject({
      type: 'run_end',
      data: { reply: 'Five.', finish_reason: 'final' },
    });
  });

  it('user_message: a message sent while the model gives its answer is read by another step', async () => {
    stack.llm.setScript({
      replies: [addCall(2, 3), { text: 'Five.', latencyMs: 2_000 }, 'Five, in metric.'],
    });
    const before = stack.llm.requests().length;
    let joined: Promise<Response> | undefined;
    const events = await collect(client.chatStream({ message: 'Two plus three?' }), (event) => {
      if (event.type !== 'run_start') return;
      // the second model step (the answer) is in flight: the message comes as the model answers
      joined = expectEventually(() => expect(stack.llm.requests().length - before).toBe(2)).then(() =>
        join(event.data.run_id, 'use metric units'),
      );
    });
    const answer = await joined;
    expect(answer?.status).toBe(202);
    expect(await answer?.json()).toMatchObject({ status: 'joined' });
    expect(events.find((event) => event.type === 'user_message')).toMatchObject({
      data: { step: 3, text: 'use metric units' },
    });
    expect(events.at(-1)).toMatchObject({ type: 'run_end', data: { reply: 'Five, in metric.' } });
    const run = await client.runs.trace(
      (events.at(-1) as Extract<ChatEvent, { type: 'run_end' }>).data.run_id,
    );
    expect((run as RunView).trace).toContainEqual(
      expect.objectContaining({ kind: 'user_message', message: 'use metric units', step: 3 }),
    );
  });

  it('a message to a run on its last step is refused with 409 naming the session to use instead', async () => {
    stack.llm.setScript({ replies: [{ text: 'Done.', latencyMs: 2_000 }] });
    const before = stack.llm.requests().length;
    let refused: Promise<Response> | undefined;
    const events = await collect(client.chatStream({ message: 'Quick one', agent: 'limited' }), (event) => {
      if (event.type !== 'run_start') return;
      refused = expectEventually(() => expect(stack.llm.requests().length - before).toBe(1)).then(() =>
        join(event.data.run_id, 'and another thing'),
      );
    });
    const answer = (await refused) as Response;
    expect(answer.status).toBe(409);
    const body = (await answer.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('conflict');
    expect(body.error.message).toMatch(/last step or ending.*session_id 'ses_/);
    expect(events.at(-1)).toMatchObject({ type: 'run_end', data: { reply: 'Done.' } });
  });

  it('approval_required, then the approved call streams on to its answer', async () => {
    stack.llm.setScript({ replies: [addCall(4, 4), 'Eight.'] });
    const held = await collect(client.chatStream({ message: 'Four plus four?', agent: 'guarded' }));
    expect(types(held)).toEqual(['run_start', 'approval_required', 'run_end']);
    const call = held[1].data as PendingApproval & { run_id: string };
    const approved = await collect(
      client.runs.approveStream(call.run_id, { decision: { hash: call.hash, call_id: call.call_id } }),
    );
    expect(types(approved)).toContain('tool_result');
    expect(approved.at(-1)).toMatchObject({ type: 'run_end', data: { reply: 'Eight.' } });
  });

  it('plan and step: a plan held for approval, then its steps as it runs', async () => {
    stack.llm.setScript({
      replies: ['{"steps":[{"description":"add them","tool":"add","params":{"a":4,"b":4}}]}', 'Eight.'],
    });
    const held = await collect(client.chatStream({ message: 'Four plus four', agent: 'approver' }));
    expect(types(held)).toEqual(['run_start', 'plan', 'run_end']);
    const runId = (held[0] as Extract<ChatEvent, { type: 'run_start' }>).data.run_id;
    const approved = await collect(client.runs.approveStream(runId));
    expect(types(approved).filter((type) => type === 'step')).toHaveLength(2);
    expect(approved.at(-1)).toMatchObject({ type: 'run_end', data: { reply: 'Eight.' } });
  });
});
