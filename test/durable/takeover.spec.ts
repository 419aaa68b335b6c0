import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentChassisClient, type ChatEvent } from '@app/client';
import type { AgentRunReply, RunView } from '@app/contracts';
import { expectEventually, MIGRATED_DATABASES } from '@app/testing';
import { bearer, post } from '../faults/fault-stack';
import { uniqueNamespace } from '../functions/plugins';
import { type DurableStack, startDurableStack } from './durable-stack';

const ANSWER = 'The answer is 42.';

describe.each(MIGRATED_DATABASES)(
  'a run whose executor dies (two executors, built processes, $name)',
  ({ name, create }) => {
    const ns = uniqueNamespace('d');
    let durable: DurableStack;
    let drop: () => Promise<void>;
    let key: string;

    beforeAll(async () => {
      const database = await create();
      drop = database.drop;
      durable = await startDurableStack(database.url, ns);
      key = await durable.stack.key(['chat']);
    }, 60_000);
    afterAll(async () => {
      await durable?.close();
      await drop?.();
    });

    const chat = (message: string, stream = false, agent = 'helper') =>
      post(durable.stack.base, '/api/v1/chat', { message, agent, stream }, bearer(key));
    const view = async (runId: string) =>
      (await (
        await fetch(`${durable.stack.base}/api/v1/runs/${runId}`, { headers: bearer(key) })
      ).json()) as RunView;
    const killHolderOf = async (runId: string) => {
      const holder = await durable.holderOf(runId);
      await holder.kill();
      durable.executors.splice(durable.executors.indexOf(holder), 1);
      await durable.addExecutor(); // two again, for the next case
    };

    it('killed -9 mid model step: the JSON caller gets the answer from the other executor; no step runs twice', async () => {
      durable.stack.llm.setScript({
        replies: [`<call name="${ns}_noop"></call>`, { text: ANSWER, latencyMs: 2_500 }],
      });
      const asked = chat('What is six times seven?');
      // the second model step is in flight
      await expectEventually(() => expect(durable.stack.llm.requests()).toHaveLength(2), {
        timeoutMs: 15_000,
      });
      const runId = (await durable.runningRun()) as string;
      await killHolderOf(runId);
      // the latency kept the step in flight for the kill; the step asked again answers at once
      durable.stack.llm.setScript({ replies: [`<call name="${ns}_noop"></call>`, ANSWER] });

      const answered = await asked;
      expect(answered.status).toBe(200);
      expect((await answered.json()) as AgentRunReply).toMatchObject({ reply: ANSWER, run_id: runId });
      // the first step was replayed from the journal; only the step cut off was asked again
      expect(durable.stack.llm.requests()).toHaveLength(3);
      const run = await view(runId);
      expect(run).toMatchObject({ status: 'completed', takeovers: 1, reply: ANSWER });
      expect(run.trace.map((step) => step.kind)).toContain('takeover');
      expect(run.trace.filter((step) => step.kind === 'action')).toHaveLength(1);
    }, 60_000);

    // What is in flight at the kill (a call, an approved plan, a run cancelled after) is the
    // engine's, not the database's: these cases run on PostgreSQL only. Each database's part of
    // them (claiming a lapsed lease, a call's start journaled, an approved plan leased, a run's
    // end) is tested on both databases by the executor's repository specs (run-lease.repository,
    // run-journal, run-finisher.service), and the cases above and below take a run over on both.
    if (name === 'PostgreSQL') {
      it('killed -9 mid tool call: the SSE caller sees run_resumed and ends with the answer', async () => {
        // a long call, so that the test (polling the database on a loaded machine) kills its executor while it runs
        durable.stack.llm.setScript({
          replies: [`<call name="${ns}_sleep"><p>ms: 6000</p></call>`, ANSWER],
        });
        const before = durable.stack.llm.requests().length;
        // through the typed client, as the CLI and the console read a run's events
        const client = new AgentChassisClient({ baseUrl: durable.stack.base, apiKey: key });
        const events = (async () => {
          const out: ChatEvent[] = [];
          for await (const event of client.chatStream({
            message: 'Sleep on it, then answer.',
            agent: 'helper',
          }))
            out.push(event);
          return out;
        })();
        let runId: string | undefined;
        await expectEventually(async () => {
          runId = await durable.runningRun();
          expect(runId).toBeDefined();
          // the call's start is journaled: it is in flight
          expect(
            await durable.db.runJournalEntry.count({ where: { run_id: runId, kind: 'tool_started' } }),
          ).toBe(1);
        });
        await killHolderOf(runId as string);

        const told = await events;
        const resumed = told.find((event) => event.type === 'run_resumed');
        expect(resumed?.data).toMatchObject({ run_id: runId, takeovers: 1, step: 2 });
        expect(told.at(-1)).toMatchObject({
          type: 'run_end',
          data: { reply: ANSWER, finish_reason: 'final' },
        });
        expect(told.filter((event) => event.type === 'run_end')).toHaveLength(1);
        // the journaled model step was not asked again
        expect(durable.stack.llm.requests().length - before).toBe(2);
        const run = await view(runId as string);
        expect(run).toMatchObject({ status: 'completed', takeovers: 1 });
        // the sleep function is not declared idempotent: not sent again, the model was told
        expect(run.trace.find((step) => step.kind === 'action')?.error).toMatch(
          /whether it took effect is unknown/,
        );
      }, 60_000);

      it('killed -9 mid approved plan: the approve caller follows the run and gets the answer', async () => {
        durable.stack.llm.setScript({
          replies: [
            JSON.stringify({ steps: [{ description: 'check', tool: `${ns}_noop`, params: {} }] }),
            { text: ANSWER, latencyMs: 2_500 },
          ],
        });
        const paused = await chat('Plan it first.', false, 'approver');
        expect(((await paused.json()) as AgentRunReply).finish_reason).toBe('awaiting_approval');
        const runId = (await durable.db.run.findFirstOrThrow({ where: { status: 'awaiting_approval' } })).id;
        const asked = durable.stack.llm.requests().length;
        const approved = post(durable.stack.base, `/api/v1/runs/${runId}/approve`, {}, bearer(key));
        // the plan's summary, the continuation's last model step, is in flight
        await expectEventually(() => expect(durable.stack.llm.requests().length).toBe(asked + 1), {
          timeoutMs: 15_000,
        });
        await killHolderOf(runId);
        // the latency kept the summary in flight for the kill; asked again, it answers at once
        durable.stack.llm.setScript({
          replies: [
            JSON.stringify({ steps: [{ description: 'check', tool: `${ns}_noop`, params: {} }] }),
            ANSWER,
          ],
        });

        const answered = await approved;
        expect(answered.status).toBe(200);
        expect((await answered.json()) as AgentRunReply).toMatchObject({ reply: ANSWER, run_id: runId });
        const run = await view(runId);
        expect(run).toMatchObject({ status: 'completed', takeovers: 1, reply: ANSWER });
        // the plan step ran before the kill: read from the journal, not run again
        expect(run.trace.filter((step) => step.kind === 'plan_step')).toHaveLength(1);
        expect(run.trace.find((step) => step.kind === 'plan_step')?.error).toBeUndefined();
      }, 60_000);

      it('killed -9 mid model step: the run taken over is cancelled at its new executor', async () => {
        durable.stack.llm.setScript({
          replies: [
            { text: ANSWER, latencyMs: 2_500 },
            { text: 'too late', latencyMs: 30_000 },
          ],
        });
        const asked = chat('Take your time.');
        let runId: string | undefined;
        await expectEventually(async () => {
          runId = await durable.runningRun();
          expect(runId).toBeDefined();
        });
        const before = durable.stack.llm.requests().length;
        const dead = (await durable.db.run.findUniqueOrThrow({ where: { id: runId } })).lease_owner;
        await killHolderOf(runId as string);
        // the new executor asks the cut-off model step again: the run is in flight there
        await expectEventually(() => expect(durable.stack.llm.requests().length).toBe(before + 1), {
          timeoutMs: 20_000,
        });
        const row = await durable.db.run.findUniqueOrThrow({ where: { id: runId } });
        expect(row.lease_owner).not.toBe(dead);

        const cancelled = await post(durable.stack.base, `/api/v1/runs/${runId}/cancel`, {}, bearer(key));
        expect(cancelled.status).toBe(200);
        expect(await cancelled.json()).toMatchObject({ run_id: runId, finish_reason: 'cancelled' });
        expect(await (await asked).json()).toMatchObject({ run_id: runId, finish_reason: 'cancelled' });
        // ended by its executor, not closed in the database as a run nobody holds
        expect(await view(runId as string)).toMatchObject({ status: 'cancelled', takeovers: 1, error: null });
      }, 60_000);
    }

    it('SIGTERM mid run: the run is handed over at once and the JSON caller gets its answer', async () => {
      // the first ask is slow, so the step is in flight at the stop; the step the other executor
      // asks again after the handover answers at once
      durable.stack.llm.setScript({
        rules: [{ match: 'Answer slowly.', reply: { text: ANSWER, latencyMs: 2_500 }, times: 1 }],
        replies: [ANSWER],
      });
      const asked = chat('Answer slowly.');
      let runId: string | undefined;
      await expectEventually(async () => {
        runId = await durable.runningRun();
        expect(runId).toBeDefined();
      });
      const holder = await durable.holderOf(runId as string);
      durable.executors.splice(durable.executors.indexOf(holder), 1);
      await holder.stop();

      const answered = await asked;
      expect(answered.status).toBe(200);
      expect((await answered.json()) as AgentRunReply).toMatchObject({ reply: ANSWER, run_id: runId });
      const run = await view(runId as string);
      expect(run).toMatchObject({ status: 'completed', takeovers: 1 });
      expect(run.error).toBeNull();
    }, 60_000);
  },
);
