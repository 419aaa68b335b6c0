import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PendingApproval } from '@app/contracts';
import { expectEventually } from '@app/testing';
import { readEvents, type SseEvent } from '../chat/chat-stack';
import { auth, conversationReplies, newKey } from './cluster-load';
import { type Cluster, startCluster } from './cluster.harness';
import { DOOR_RULES, doorCases } from './door-cases';
import { PRICING, SPEND_AGENT, SPEND_RULES, spendCases, TOKEN_QUOTA } from './spend-cases';

/**
 * The cluster's per-key limit here: small, so that one burst crosses it, yet above what the file's
 * admin key sends in a minute (its cases create keys and call the doors with it: 40 was once crossed).
 */
const RATE_LIMIT = 100;
/** Its concurrent-run limit per key, likewise. */
const MAX_RUNS = 4;
/** A message of this prefix takes the model a while: the runs it starts overlap. */
const SLOW = 'slow-run-';

// What one gateway knows must hold on the other: each request here goes to one gateway directly.
export function crossGatewayCases(): void {
  describe('npm run cluster: state across the two gateways', () => {
    let cluster: Cluster;
    let a: string;
    let b: string;

    beforeAll(async () => {
      cluster = await startCluster({
        stepMs: 500,
        env: {
          RATE_LIMIT_PER_MINUTE: String(RATE_LIMIT),
          MAX_CONCURRENT_RUNS_PER_KEY: String(MAX_RUNS),
          DAILY_TOKEN_QUOTA_PER_KEY: String(TOKEN_QUOTA),
        },
        config: { pricing: PRICING, agents: [SPEND_AGENT] },
      });
      [a, b] = cluster.gateways;
      cluster.llm.setScript({
        rules: [
          ...SPEND_RULES,
          { match: SLOW, reply: { text: 'slow answer', latencyMs: 4_000 } },
          ...DOOR_RULES,
        ],
        replies: conversationReplies(cluster),
      });
    }, 180_000);
    afterAll(() => cluster?.close());

    it(
      'runs one turn for one Idempotency-Key sent to both gateways at once',
      { timeout: 60_000 },
      async () => {
        const tag = `both-gateways-${Date.now()}`;
        const send = (gateway: string) =>
          fetch(`${gateway}/api/v1/chat`, {
            method: 'POST',
            headers: { ...auth, 'idempotency-key': `key-${tag}` },
            body: JSON.stringify({ message: tag, agent: 'helper' }),
          }).then(async (res) => ({ status: res.status, body: (await res.json()) as { run_id: string } }));
        const [first, second] = await Promise.all([send(a), send(b)]);

        expect([first.status, second.status]).toEqual([200, 200]);
        expect(first.body.run_id).toBe(second.body.run_id);
        expect(await cluster.db.run.count({ where: { input: tag } })).toBe(1);
        expect(cluster.fn.callsTagged(tag).length).toBeLessThanOrEqual(1);
      },
    );

    const chatOn = (gateway: string, body: Record<string, unknown>) =>
      fetch(`${gateway}/api/v1/chat`, { method: 'POST', headers: auth, body: JSON.stringify(body) });

    it(
      'decides on B a call held while A streamed its run; the run finishes once',
      { timeout: 60_000 },
      async () => {
        const tag = `held-${Date.now()}`;
        const streamed = await chatOn(a, { message: tag, agent: 'gated', stream: true });
        expect(streamed.status).toBe(200);
        const events = await readEvents(streamed);
        expect(events.at(-1)).toMatchObject({
          event: 'run_end',
          data: { finish_reason: 'awaiting_approval' },
        });
        const required = events.find((event) => event.event === 'approval_required')
          ?.data as PendingApproval & {
          run_id: string;
        };
        const { run_id: runId, call_id: callId, hash } = required;
        expect(cluster.fn.callsTagged(tag)).toHaveLength(0);

        const decide = (gateway: string) =>
          fetch(`${gateway}/api/v1/runs/${runId}/approve`, {
            method: 'POST',
            headers: auth,
            body: JSON.stringify({ call_id: callId, hash }),
          });
        const approved = await decide(b);
        expect(approved.status).toBe(200);
        expect(await approved.json()).toMatchObject({
          run_id: runId,
          reply: `done: ${tag}`,
          finish_reason: 'final',
        });
        expect(cluster.fn.callsTagged(tag)).toHaveLength(1);
        // decided once: A finds nothing waiting any more, and the run is one completed run
        expect((await decide(a)).status).toBe(409);
        const view = (await (await fetch(`${a}/api/v1/runs/${runId}`, { headers: auth })).json()) as {
          status: string;
        };
        expect(view.status).toBe('completed');
        expect(await cluster.db.run.count({ where: { input: tag } })).toBe(1);
      },
    );

    it(
      'reads a message sent to B for a run A streams, or refuses it with 409',
      { timeout: 60_000 },
      async () => {
        const tag = `streamed-${Date.now()}`;
        const note = `mid-run-note-${Date.now()}`;
        const streamed = await chatOn(a, { message: tag, agent: 'helper', stream: true });
        expect(streamed.status).toBe(200);
        let started!: (runId: string) => void;
        const runStarted = new Promise<string>((resolve) => (started = resolve));
        const events: Promise<SseEvent[]> = readEvents(streamed, (event) => {
          const data = event.data as { run_id?: string };
          if (event.event === 'run_start' && data.run_id) started(data.run_id);
        });
        const runId = await runStarted;

        const sent = await chatOn(b, { message: note, agent: 'helper', run_id: runId });
        const answer = (await sent.json()) as { status?: string; error?: { code: string } };
        const ended = await events;
        expect(ended.at(-1)?.event).toBe('run_end');
        console.log(`cluster mid-run message on the other gateway: ${sent.status} ${JSON.stringify(answer)}`);
        if (sent.status === 409) return;
        expect(sent.status).toBe(202);
        expect(answer.status).toBe('joined');
        // joined: the run read it (a later model call of this run carries it)
        await expectEventually(
          () => expect(cluster.llm.requests().some((r) => JSON.stringify(r.body).includes(note))).toBe(true),
          { timeoutMs: 30_000 },
        );
      },
    );

    it('admits exactly the per-minute limit of one key hit through both gateways at once', async () => {
      for (let attempt = 0; attempt < 3; attempt += 1) {
        const { key } = await newKey(a, 'rate');
        const window = Math.floor(Date.now() / 60_000);
        const statuses = await Promise.all(
          Array.from({ length: 2 * RATE_LIMIT }, (_, i) =>
            fetch(`${i % 2 ? b : a}/api/v1/me`, { headers: { authorization: `Bearer ${key}` } }).then(
              (res) => res.status,
            ),
          ),
        );
        // a burst across a minute's end counts in two windows: tried again with a new key
        if (Math.floor(Date.now() / 60_000) !== window) continue;
        const accepted = statuses.filter((status) => status === 200).length;
        console.log(
          `cluster rate limit ${RATE_LIMIT}/min, ${2 * RATE_LIMIT} requests over two gateways: ${accepted} accepted`,
        );
        expect(accepted).toBe(RATE_LIMIT);
        expect(statuses.filter((status) => status === 429)).toHaveLength(RATE_LIMIT);
        return;
      }
      throw new Error('three bursts in a row crossed a minute');
    });

    it('admits exactly the concurrent-run limit of one key over both gateways at once', async () => {
      const { key } = await newKey(a, 'slots');
      const statuses = await Promise.all(
        Array.from({ length: 2 * MAX_RUNS }, (_, i) =>
          fetch(`${i % 2 ? b : a}/api/v1/chat`, {
            method: 'POST',
            headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
            body: JSON.stringify({ message: `${SLOW}${i}`, agent: 'helper' }),
          }).then(async (res) => (await res.text(), res.status)),
        ),
      );
      const accepted = statuses.filter((status) => status === 200).length;
      console.log(
        `cluster run limit ${MAX_RUNS}, ${2 * MAX_RUNS} runs over two gateways: ${accepted} accepted`,
      );
      expect(accepted).toBe(MAX_RUNS);
      expect(statuses.filter((status) => status === 429)).toHaveLength(MAX_RUNS);
    });

    it('refuses a key revoked on one gateway on the other too', { timeout: 60_000 }, async () => {
      const { id, key } = await newKey(a, 'revoked');
      const me = () => fetch(`${b}/api/v1/me`, { headers: { authorization: `Bearer ${key}` } });
      expect((await me()).status).toBe(200);

      const revokedAt = Date.now();
      expect(
        (await fetch(`${a}/api/v1/keys/${id}`, { method: 'DELETE', headers: auth })).status,
      ).toBeLessThan(300);
      await expectEventually(async () => expect((await me()).status).toBe(401), {
        timeoutMs: 30_000,
        intervalMs: 100,
      });
      // the other gateway trusts a key it checked for a few seconds (KEY_CHECK_TTL_MS): reported
      console.log(`cluster revocation seen by the other gateway after ${Date.now() - revokedAt} ms`);
    });

    doorCases(() => ({ cluster, a, b }));
    spendCases(() => ({ cluster, a, b }));
  });
}
