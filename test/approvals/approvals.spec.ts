import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { argumentsHash } from '@app/agent-core';
import type { AgentRunReply, PendingApproval, RunView } from '@app/contracts';
import { expectEventually, MIGRATED_DATABASES } from '@app/testing';
import { readEvents } from '../chat/chat-stack';
import { bearer, post } from '../faults/fault-stack';
import { uniqueNamespace } from '../functions/plugins';
import { type ApprovalsStack, startApprovalsStack } from './approvals-stack';

const ANSWER = 'Done.';

describe.each(MIGRATED_DATABASES)(
  'function calls held for approval (built processes, $name)',
  ({ create }) => {
    const ns = uniqueNamespace('a');
    let approvals: ApprovalsStack;
    let drop: () => Promise<void>;
    let key: string;
    let stranger: string;

    beforeAll(async () => {
      const database = await create();
      drop = database.drop;
      approvals = await startApprovalsStack(database.url, ns);
      key = await approvals.stack.key(['chat']);
      stranger = await approvals.stack.key(['chat']);
    }, 60_000);
    afterAll(async () => {
      await approvals?.close();
      await drop?.();
    });

    const llm = () => approvals.stack.llm;
    const transferCall = (amount: number, to: string) =>
      `<call name="${approvals.transfer}"><p>amount: ${amount}</p><p>to: ${to}</p></call>`;
    const chat = (agent = 'gated', stream = false) =>
      post(approvals.stack.base, '/api/v1/chat', { message: 'Pay Bob.', agent, stream }, bearer(key));
    const decide = (runId: string, verb: 'approve' | 'reject', body: unknown, as = key) =>
      post(approvals.stack.base, `/api/v1/runs/${runId}/${verb}`, body, bearer(as));
    const view = async (runId: string) =>
      (await (
        await fetch(`${approvals.stack.base}/api/v1/runs/${runId}`, { headers: bearer(key) })
      ).json()) as RunView;
    /** Asks for a transfer and returns the run held on it. */
    const held = async (agent = 'gated') => {
      const res = await chat(agent);
      expect(res.status).toBe(200);
      const reply = (await res.json()) as AgentRunReply;
      expect(reply.finish_reason).toBe('awaiting_approval');
      return { runId: reply.run_id, call: (reply.approvals as PendingApproval[])[0] };
    };
    const transfersOf = (runId: string) =>
      approvals.db.functionCall.count({ where: { run_id: runId, name: approvals.transfer } });
    /** What the model read in its last request. */
    const lastPrompt = () => JSON.stringify(llm().requests().at(-1)?.body);

    it('pauses before the call with approval_required; approve runs it once and the run goes on', async () => {
      llm().setScript({ replies: [transferCall(5, 'bob'), ANSWER] });
      const streamed = await chat('gated', true);
      const events = await readEvents(streamed);
      const required = events.find((event) => event.event === 'approval_required');
      const args = { amount: 5, to: 'bob' };
      expect(required?.data).toMatchObject({
        function: approvals.transfer,
        arguments: args,
        hash: argumentsHash(args),
        expires_at: null,
      });
      const { run_id: runId, call_id: callId, hash } = required?.data as PendingApproval & { run_id: string };
      expect(events.at(-1)).toMatchObject({ event: 'run_end', data: { finish_reason: 'awaiting_approval' } });
      expect(await view(runId)).toMatchObject({
        status: 'awaiting_approval',
        approvals: [{ call_id: callId }],
      });
      expect(await transfersOf(runId)).toBe(0);

      const approved = await decide(runId, 'approve', { call_id: callId, hash });
      expect(approved.status).toBe(200);
      const reply = (await approved.json()) as AgentRunReply;
      expect(reply).toMatchObject({ reply: ANSWER, finish_reason: 'final' });
      // the result decoded, as every other reply has it (not the <result> text the model read)
      expect(reply.function_calls).toEqual([
        { name: approvals.transfer, status: 'success', result: expect.objectContaining({}) },
      ]);
      expect(typeof reply.function_calls[0].result).toBe('object');
      expect(lastPrompt()).toContain('sent 5 to bob');
      await expectEventually(async () => expect(await transfersOf(runId)).toBe(1));
      const run = await view(runId);
      expect(run).toMatchObject({ status: 'completed', used_tools: { [approvals.transfer]: { count: 1 } } });
      expect(run.approvals).toBeUndefined();
      // the decision on record, for an auditor: who (the key, never its secret), what, when
      const me = (await (
        await fetch(`${approvals.stack.base}/api/v1/me`, { headers: bearer(key) })
      ).json()) as {
        key_id: string;
        principal: string;
      };
      const decision = {
        call_id: callId,
        function: approvals.transfer,
        action: 'approve',
        by: me.principal,
        key_id: me.key_id,
        at: expect.any(String),
      };
      expect(run.decisions).toEqual([expect.objectContaining(decision)]);
      expect(run.trace).toContainEqual(
        expect.objectContaining({
          kind: 'approval',
          call_id: callId,
          decision: expect.objectContaining(decision),
        }),
      );
      expect(JSON.stringify(run)).not.toContain(key);
      // decided once: a second decision finds nothing waiting
      expect((await decide(runId, 'approve', { hash })).status).toBe(409);
    }, 60_000);

    it('reject: nothing runs and the model reads the reason as the call’s error', async () => {
      llm().setScript({ replies: [transferCall(7, 'eve'), ANSWER] });
      const { runId, call } = await held();
      const rejected = await decide(runId, 'reject', { hash: call.hash, reason: 'Eve is not a customer' });
      expect(rejected.status).toBe(200);
      expect((await rejected.json()) as AgentRunReply).toMatchObject({ reply: ANSWER });
      expect(lastPrompt()).toContain('Eve is not a customer');
      const run = await view(runId);
      expect(run.status).toBe('completed');
      expect(run.used_tools[approvals.transfer]).toBeUndefined();
      expect(run.trace.find((step) => step.kind === 'action')?.error).toMatch(/rejected/);
    }, 60_000);

    it('edit: the call runs with the new arguments; arguments the schema refuses are a 400', async () => {
      llm().setScript({ replies: [transferCall(500, 'bob'), ANSWER] });
      const { runId, call } = await held();
      const bad = await decide(runId, 'approve', {
        hash: call.hash,
        edit: { arguments: { amount: 'lots' } },
      });
      expect(bad.status).toBe(400);
      const edited = await decide(runId, 'approve', {
        hash: call.hash,
        edit: { arguments: { amount: 50, to: 'bob' } },
      });
      expect(edited.status).toBe(200);
      expect(lastPrompt()).toContain('sent 50 to bob');
      await expectEventually(async () => expect(await transfersOf(runId)).toBe(1));
      expect((await view(runId)).trace.find((step) => step.kind === 'action')?.action?.args).toEqual({
        amount: 50,
        to: 'bob',
      });
    }, 60_000);

    it('respond: nothing runs; the model reads the given result (the decision streamed)', async () => {
      llm().setScript({ replies: [transferCall(9, 'bob'), ANSWER] });
      const { runId, call } = await held();
      const responded = await post(
        approvals.stack.base,
        `/api/v1/runs/${runId}/approve`,
        { hash: call.hash, respond: { result: { receipt: 'manual-42' } } },
        { ...bearer(key), accept: 'text/event-stream' },
      );
      expect(responded.status).toBe(200);
      const told = await readEvents(responded);
      expect(told[0]).toMatchObject({ event: 'run_resumed', data: { run_id: runId, step: 2 } });
      expect(told.find((event) => event.event === 'tool_result')?.data).toMatchObject({
        name: approvals.transfer,
        status: 'success',
      });
      expect(told.at(-1)).toMatchObject({
        event: 'run_end',
        data: { reply: ANSWER, finish_reason: 'final' },
      });
      expect(lastPrompt()).toContain('manual-42');
      const run = await view(runId);
      expect(run.status).toBe('completed');
      expect(run.used_tools[approvals.transfer]).toBeUndefined();
    }, 60_000);

    it('a wrong hash is a 409 naming the mismatch; another principal gets a 404; the run still waits', async () => {
      llm().setScript({ replies: [transferCall(3, 'bob'), ANSWER] });
      const { runId, call } = await held();
      const wrong = await decide(runId, 'approve', {
        call_id: call.call_id,
        hash: argumentsHash({ amount: 3000 }),
      });
      expect(wrong.status).toBe(409);
      expect(JSON.stringify(await wrong.json())).toMatch(/hash mismatch.*was shown with hash/);
      const foreign = await decide(runId, 'approve', { hash: call.hash }, stranger);
      expect(foreign.status).toBe(404);
      expect((await view(runId)).status).toBe('awaiting_approval');
      expect((await decide(runId, 'approve', { hash: call.hash })).status).toBe(200);
    }, 60_000);

    it('a decision after the executor restarted carries the run on from its journal', async () => {
      llm().setScript({ replies: [transferCall(11, 'bob'), ANSWER] });
      const { runId, call } = await held();
      const asked = llm().requests().length;
      await approvals.restartExecutor();

      const approved = await decide(runId, 'approve', { hash: call.hash });
      expect(approved.status).toBe(200);
      expect((await approved.json()) as AgentRunReply).toMatchObject({
        reply: ANSWER,
        finish_reason: 'final',
      });
      // the model step before the hold came from the journal; only the next one was asked
      expect(llm().requests().length - asked).toBe(1);
      await expectEventually(async () => expect(await transfersOf(runId)).toBe(1));
    }, 60_000);

    it('a plan the model wrote waits at its transfer step; decided by its hash, the plan goes on from there', async () => {
      const pay = { description: 'pay', tool: approvals.transfer, params: { amount: 17, to: 'bob' } };
      llm().setScript({ replies: [JSON.stringify({ steps: [pay] }), ANSWER] });
      const { runId, call } = await held('planner');
      expect(call).toMatchObject({ function: approvals.transfer, arguments: pay.params });
      expect(await view(runId)).toMatchObject({
        status: 'awaiting_approval',
        plan: { steps: [{ status: 'pending' }] },
      });
      expect(await transfersOf(runId)).toBe(0);
      // a held call is not a held plan: approving the plan whole is refused
      expect((await decide(runId, 'approve', undefined)).status).toBe(400);

      const approved = await decide(runId, 'approve', { hash: call.hash });
      expect(approved.status).toBe(200);
      expect((await approved.json()) as AgentRunReply).toMatchObject({
        reply: ANSWER,
        finish_reason: 'final',
      });
      await expectEventually(async () => expect(await transfersOf(runId)).toBe(1));
      expect((await view(runId)).plan?.steps[0]).toMatchObject({ status: 'completed' });
    }, 60_000);

    it('a plan approved whole still waits at its transfer step, and goes on once that is decided', async () => {
      const check = {
        description: 'tell',
        tool: 'send_message',
        params: { to: 'ops', message: 'paying bob' },
      };
      const pay = { description: 'pay', tool: approvals.transfer, params: { amount: 19, to: 'bob' } };
      llm().setScript({ replies: [JSON.stringify({ steps: [check, pay] }), ANSWER] });
      const res = await chat('reviewed');
      const planned = (await res.json()) as AgentRunReply;
      expect(planned).toMatchObject({ finish_reason: 'awaiting_approval' });
      expect(planned.approvals).toBeUndefined();

      const reviewed = await decide(planned.run_id, 'approve', undefined);
      expect(reviewed.status).toBe(200);
      const heldReply = (await reviewed.json()) as AgentRunReply;
      expect(heldReply).toMatchObject({ finish_reason: 'awaiting_approval' });
      const [call] = heldReply.approvals as PendingApproval[];
      expect(call).toMatchObject({ function: approvals.transfer, arguments: pay.params });
      expect(await transfersOf(planned.run_id)).toBe(0);

      const approved = await decide(planned.run_id, 'approve', { hash: call.hash });
      expect(approved.status).toBe(200);
      expect((await approved.json()) as AgentRunReply).toMatchObject({
        reply: ANSWER,
        finish_reason: 'final',
      });
      await expectEventually(async () => expect(await transfersOf(planned.run_id)).toBe(1));
      const run = await view(planned.run_id);
      expect(run.plan?.steps.map((step) => step.status)).toEqual(['completed', 'completed']);
      // the first step ran once: carried on from the journal, not again
      expect(run.used_tools.send_message?.count).toBe(1);
    }, 60_000);

    it('the timeout’s default decision applies (here: approve) without anyone deciding', async () => {
      llm().setScript({ replies: [transferCall(13, 'bob'), ANSWER] });
      const { runId, call } = await held('timed');
      expect(call.expires_at).not.toBeNull();
      await expectEventually(async () => expect((await view(runId)).status).toBe('completed'), {
        timeoutMs: 15_000,
      });
      expect((await view(runId)).reply).toBe(ANSWER);
      await expectEventually(async () => expect(await transfersOf(runId)).toBe(1));
    }, 60_000);
  },
);
