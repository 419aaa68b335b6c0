import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentRunReply, RunView } from '@app/contracts';
import { MIGRATED_DATABASES } from '@app/testing';
import { bearer, post } from '../faults/fault-stack';
import { uniqueNamespace } from '../functions/plugins';
import { type ApprovalsStack, startApprovalsStack } from './approvals-stack';

const ANSWER = 'Told.';
const TELL = { description: 'tell', tool: 'send_message', params: { to: 'ops', message: 'hello' } };

describe.each(MIGRATED_DATABASES)(
  'a plan held whole for approval: its decision on record (built processes, $name)',
  ({ create }) => {
    const ns = uniqueNamespace('p');
    let approvals: ApprovalsStack;
    let drop: () => Promise<void>;
    let approver: string;
    let rejecter: string;

    beforeAll(async () => {
      const database = await create();
      drop = database.drop;
      approvals = await startApprovalsStack(database.url, ns);
      approver = await approvals.stack.key(['chat']);
      rejecter = await approvals.stack.key(['chat']);
    }, 60_000);
    afterAll(async () => {
      await approvals?.close();
      await drop?.();
    });

    const get = async <T>(path: string, key: string) =>
      (await (await fetch(`${approvals.stack.base}${path}`, { headers: bearer(key) })).json()) as T;
    const me = (key: string) => get<{ key_id: string; principal: string }>('/api/v1/me', key);
    const decide = (runId: string, verb: 'approve' | 'reject', key: string, body?: { reason: string }) =>
      post(approvals.stack.base, `/api/v1/runs/${runId}/${verb}`, body, bearer(key));
    /** A run of `reviewed` started with `key`, its plan held whole. */
    const planned = async (key: string) => {
      approvals.stack.llm.setScript({ replies: [JSON.stringify({ steps: [TELL] }), ANSWER] });
      const res = await post(
        approvals.stack.base,
        '/api/v1/chat',
        { message: 'Tell ops.', agent: 'reviewed' },
        bearer(key),
      );
      const reply = (await res.json()) as AgentRunReply;
      expect(reply.finish_reason).toBe('awaiting_approval');
      return reply.run_id;
    };
    /** The run's decisions and trace name the key's principal and id, never its secret. */
    const expectOnRecord = async (
      runId: string,
      key: string,
      action: 'approve' | 'reject',
      reason?: string,
    ) => {
      const run = await get<RunView>(`/api/v1/runs/${runId}`, key);
      const { principal, key_id } = await me(key);
      const decision = {
        kind: 'plan',
        call_id: 'plan:0',
        function: '',
        action,
        by: principal,
        key_id,
        at: expect.any(String),
        asked_at: expect.any(String),
        ...(reason ? { reason } : {}),
      };
      expect(run.decisions).toEqual([decision]);
      const [{ at, asked_at }] = run.decisions!;
      expect(Date.parse(asked_at)).toBeGreaterThanOrEqual(Date.parse(run.created_at));
      expect(Date.parse(at)).toBeGreaterThanOrEqual(Date.parse(asked_at));
      // the approval step right after the plan it decided, at the plan's step
      const plan = run.trace.findIndex((entry) => entry.kind === 'plan');
      expect(plan).toBeGreaterThanOrEqual(0);
      expect(run.trace[plan + 1]).toEqual({
        step: run.trace[plan].step,
        kind: 'approval',
        call_id: 'plan:0',
        decision,
        elapsed_ms: 0,
      });
      expect(JSON.stringify(run)).not.toContain(key);
      return run;
    };

    it('records who approved one plan and who rejected another (and why): principal, key id and when', async () => {
      const approvedId = await planned(approver);
      expect((await get<RunView>(`/api/v1/runs/${approvedId}`, approver)).decisions).toBeUndefined();
      const approved = await decide(approvedId, 'approve', approver);
      expect(approved.status).toBe(200);
      expect(((await approved.json()) as AgentRunReply).reply).toBe(ANSWER);
      const done = await expectOnRecord(approvedId, approver, 'approve');
      expect(done.status).toBe('completed');
      expect(done.trace.map((entry) => entry.kind)).toEqual(['plan', 'approval', 'plan_step', 'summary']);

      const rejectedId = await planned(rejecter);
      const why = 'ops are on holiday';
      const rejected = await decide(rejectedId, 'reject', rejecter, { reason: why });
      expect(rejected.status).toBe(200);
      expect((await rejected.json()) as AgentRunReply).toMatchObject({ finish_reason: 'rejected' });
      expect(await expectOnRecord(rejectedId, rejecter, 'reject', why)).toMatchObject({
        status: 'cancelled',
        error: why,
      });
    }, 60_000);

    it('keeps only the decision that won: a second one is refused and leaves the record as it was', async () => {
      const runId = await planned(approver);
      expect((await decide(runId, 'reject', approver)).status).toBe(200);
      expect((await decide(runId, 'approve', approver)).status).toBe(409);
      await expectOnRecord(runId, approver, 'reject');
    }, 60_000);
  },
);
