import { describe, expect, it } from 'vitest';
import { costOf } from './cost';
import { promptTokensOf } from './model/prompt-estimate';
import type { CompletionRequest } from './model/model-client';
import type { RunState } from './run-state';
import type { SpendHold, SpendLedger } from './ports';
import { action, finalAnswer, harness, worstCaseBilling } from './testing/fixtures.fixture';

const price = { input_per_mtok: 2, output_per_mtok: 8 };
const MAX_TOKENS = 200;

const adding = () => [1, 2, 3, 4, 5].map((n) => action('add', { a: n, b: 1 }));

describe('USD budgets hold before the call', () => {
  it.each([
    ['run', false],
    ['stream', true],
  ])(
    'a run whose budget allows 2.5 calls ends after 2 with budget, the third never sent (%s)',
    async (_, streaming) => {
      const billing = worstCaseBilling;
      const { agent, model } = harness(
        [...adding(), finalAnswer('done')],
        { max_tokens: MAX_TOKENS },
        { billing },
      );
      // what one call costs at worst, measured on a run without a budget
      const probe = harness(
        [action('add', { a: 1, b: 1 }), finalAnswer('done')],
        { max_tokens: MAX_TOKENS },
        { billing },
      );
      await probe.agent.run({ message: 'Add up.', price });
      const oneCall = costOf(
        { prompt_tokens: promptTokensOf(probe.model.requests[0]), completion_tokens: MAX_TOKENS },
        price,
      );

      const budgeted = agent.withDefinition({ max_cost_usd: oneCall * 2.5 });
      const result = streaming
        ? await budgeted.send({ message: 'Add up.', price }).result
        : await budgeted.run({ message: 'Add up.', price });
      expect(result.finish_reason).toBe('budget');
      expect(model.requests).toHaveLength(2);
      expect(result.usage.cost_usd).toBeLessThanOrEqual(oneCall * 2.5);
      expect(result.reply).toMatch(
        /^I stopped before finishing: the next model call may cost up to .* USD left of the run's cost budget/,
      );
      expect(result.function_calls).toHaveLength(2);
    },
  );

  it('bounds max_tokens for a call under a budget when the agent sets none', async () => {
    const { agent, model } = harness([finalAnswer('done')], { max_cost_usd: 1 });
    await agent.run({ message: 'Hi', price });
    expect(model.requests[0].maxTokens).toBe(4096);
    const unbudgeted = harness([finalAnswer('done')]);
    await unbudgeted.agent.run({ message: 'Hi', price });
    expect(unbudgeted.model.requests[0].maxTokens).toBeUndefined();
  });

  it("reserves each call's worst case in the key's ledger before it is sent and settles at what it cost", async () => {
    const events: string[] = [];
    let left = 1;
    const ledger: SpendLedger = {
      applies: () => true,
      reserve: async (_run: RunState, usd: number): Promise<SpendHold | undefined> => {
        if (usd > left) return undefined;
        left -= usd;
        events.push(`reserve ${usd}`);
        return { settle: (cost) => ((left += usd - cost), events.push(`settle ${cost}`)) };
      },
    };
    const { agent, model } = harness(
      [action('add', { a: 1, b: 2 }), finalAnswer('3')],
      { max_tokens: 100 },
      { spend: ledger },
    );
    const result = await agent.run({ message: '1 + 2?', price });
    expect(result.finish_reason).toBe('final');
    const worst = (request: CompletionRequest) =>
      costOf({ prompt_tokens: promptTokensOf(request), completion_tokens: 100 }, price);
    const billed = costOf({ prompt_tokens: 10, completion_tokens: 5 }, price);
    expect(events).toEqual([
      `reserve ${worst(model.requests[0])}`,
      `settle ${billed}`,
      `reserve ${worst(model.requests[1])}`,
      `settle ${billed}`,
    ]);
    expect(left).toBeCloseTo(1 - 2 * billed, 12);
  });

  it("sends nothing when the key's ledger cannot take the call's worst case, and says so", async () => {
    const ledger: SpendLedger = { applies: () => true, reserve: async () => undefined };
    const { agent, model } = harness([finalAnswer('never')], {}, { spend: ledger });
    const result = await agent.run({ message: 'Hi', price });
    expect(result.finish_reason).toBe('budget');
    expect(model.requests).toHaveLength(0);
    expect(result.reply).toContain("the API key's daily cost budget");
  });

  it('settles a failed call at 0, and leaves runs without a price or a budget alone', async () => {
    const settled: number[] = [];
    let reserved = 0;
    const ledger: SpendLedger = {
      applies: (run) => run.identity.principal !== 'free',
      reserve: async () => ((reserved += 1), { settle: (usd) => settled.push(usd) }),
    };
    const { agent } = harness([{ error: new Error('boom') }], {}, { spend: ledger });
    expect((await agent.run({ message: 'Hi', price })).finish_reason).toBe('error');
    expect(settled).toEqual([0]);
    await harness([finalAnswer('ok')], {}, { spend: ledger }).agent.run({ message: 'Hi' });
    await harness([finalAnswer('ok')], {}, { spend: ledger }).agent.run({
      message: 'Hi',
      price,
      principal: 'free',
    });
    expect(reserved).toBe(1);
  });
});
