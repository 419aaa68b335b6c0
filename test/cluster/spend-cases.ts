import { expect, it } from 'vitest';
import type { AgentRunReply } from '@app/contracts';
import { expectEventually, type Rule } from '@app/testing';
import { newKey } from './cluster-load';
import type { Cluster } from './cluster.harness';

/** A message of this prefix is answered at 50 prompt and 200 completion tokens: 0.00045 USD at PRICING. */
const SPEND = 'spend-run-';
/** One of this prefix is billed past the cluster's daily token quota at once. */
const QUOTA = 'quota-run-';
/** The cluster's per-key daily token quota: no other case's key comes near it. */
export const TOKEN_QUOTA = 5_000_000;
/** USD per million tokens of the scripted model: every run of the cluster is priced. */
export const PRICING = { 'scripted-model': { input_per_mtok: 1, output_per_mtok: 2 } };
/** Reply tokens at most (the worst case each model call holds before it is sent). */
export const SPEND_AGENT = { name: 'thrifty', protocol: 'native', max_tokens: 200 };
/** A key's day: a call's worst case is its prompt (~300–500 tokens) and 200 of reply, ~0.0008 USD. */
const CAP_USD = 0.003;
/** Callers at once, alternating gateways (the file's per-key run limit is 4). */
const CALLERS = 4;

/** The scripted model's answers to the cases below: both before any other rule. */
export const SPEND_RULES: Rule[] = [
  {
    match: SPEND,
    reply: { text: 'within budget', latencyMs: 200, usage: { prompt_tokens: 50, completion_tokens: 200 } },
  },
  {
    match: QUOTA,
    reply: { text: 'a big answer', usage: { prompt_tokens: 3_000_000, completion_tokens: 2_100_000 } },
  },
];

interface Gateways {
  cluster: Cluster;
  a: string;
  b: string;
}

/**
 * A key's daily USD budget and token quota are kept in the cluster's Redis: spent through both
 * gateways (and so both executors) at once, the budget holds to its cap, and a quota used up on
 * one gateway is refused on the other.
 */
export function spendCases(on: () => Gateways): void {
  const chat = (gateway: string, key: string, message: string, agent: string) =>
    fetch(`${gateway}/api/v1/chat`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ message, agent }),
    }).then(async (res) => ({ status: res.status, body: (await res.json()) as AgentRunReply & Refusal }));

  it(
    "holds one key's daily USD budget spent through both gateways at once to its cap",
    { timeout: 90_000 },
    async () => {
      const { cluster, a, b } = on();
      const { id, key } = await newKey(a, 'spend', { daily_cost_budget_usd: CAP_USD });
      const outcomes: string[] = [];
      // each caller sends runs one after another until the key's budget stops them
      const caller = async (n: number) => {
        for (let turn = 0; turn < 20; turn += 1) {
          const { status, body } = await chat(n % 2 ? b : a, key, `${SPEND}${n}-${turn}`, SPEND_AGENT.name);
          const outcome = status === 200 ? body.finish_reason : `${status} ${body.error?.code}`;
          outcomes.push(outcome);
          if (outcome === 'budget' || outcome === '429 budget_exceeded') return;
          // the per-key run limit is another case's: a caller that met it tries again
          if (outcome !== 'final' && outcome !== '429 rate_limited') throw new Error(`run: ${outcome}`);
        }
        throw new Error(`caller ${n}: 20 runs and the budget never stopped one`);
      };
      await Promise.all(Array.from({ length: CALLERS }, (_, n) => caller(n)));

      const runs = await cluster.db.run.findMany({ where: { key_id: id }, select: { cost_usd: true } });
      const billed = runs.reduce((sum, run) => sum + (run.cost_usd ?? 0), 0);
      console.log(
        `cluster daily budget ${CAP_USD} USD over two gateways, ${CALLERS} callers: ${runs.length} runs billed ${billed.toFixed(5)} USD; ${JSON.stringify(count(outcomes))}`,
      );
      expect(billed).toBeLessThanOrEqual(CAP_USD);
      // spent, not refused from the start: at least three calls' worth went through
      expect(billed).toBeGreaterThanOrEqual(3 * 0.00045 - 1e-9);
      // and once spent, neither gateway sends the key's calls to the model any more
      cluster.llm.clearRequests();
      for (const gateway of [a, b]) {
        const { status, body } = await chat(gateway, key, `${SPEND}after`, SPEND_AGENT.name);
        expect(status === 429 ? body.error?.code : body.finish_reason).toMatch(/^budget/);
      }
      expect(cluster.llm.requests().filter((r) => JSON.stringify(r.body).includes(`${SPEND}after`))).toEqual(
        [],
      );
    },
  );

  it(
    'refuses on one gateway a key whose daily token quota was used up on the other',
    { timeout: 60_000 },
    async () => {
      const { a, b } = on();
      const { key } = await newKey(a, 'quota');
      const used = await chat(a, key, `${QUOTA}1`, 'helper');
      expect(used.status).toBe(200);
      expect(used.body.usage.prompt_tokens + used.body.usage.completion_tokens).toBeGreaterThan(TOKEN_QUOTA);
      // the turn's tokens are charged to the key's day as its slot is released, after the answer
      const usedAt = Date.now();
      await expectEventually(
        async () => {
          const refused = await chat(b, key, `${QUOTA}2`, 'helper');
          expect(refused.status).toBe(429);
          expect(refused.body.error).toMatchObject({
            code: 'rate_limited',
            message: expect.stringContaining(`daily token quota of ${TOKEN_QUOTA} tokens used up`),
          });
        },
        { timeoutMs: 10_000, intervalMs: 100 },
      );
      console.log(`cluster token quota used up on A, refused on B after ${Date.now() - usedAt} ms`);
    },
  );
}

interface Refusal {
  error?: { code: string; message: string };
}

function count(outcomes: string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const outcome of outcomes) counts[outcome] = (counts[outcome] ?? 0) + 1;
  return counts;
}
