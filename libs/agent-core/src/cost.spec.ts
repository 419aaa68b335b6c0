import { describe, expect, it } from 'vitest';
import { costOf, pricedUsage, worstCaseCost } from './cost';
import { LimitExceeded } from './errors';
import { action, finalAnswer, harness, worstCaseBilling } from './testing/fixtures.fixture';

// The scripted model reports 10 prompt and 5 completion tokens per call: 20 micro-dollars at this price.
const price = { input_per_mtok: 1, output_per_mtok: 2 };
const STEP_USD = 0.00002;
const planOf = (...tools: string[]) =>
  JSON.stringify({ steps: tools.map((tool) => ({ description: tool, tool, params: { a: 1, b: 2 } })) });

describe('cost', () => {
  it('prices prompt and completion tokens per million, without float drift', () => {
    expect(
      costOf(
        { prompt_tokens: 1_000_000, completion_tokens: 500_000 },
        { input_per_mtok: 0.15, output_per_mtok: 0.6 },
      ),
    ).toBe(0.45);
    expect(
      costOf({ prompt_tokens: 1, completion_tokens: 2 }, { input_per_mtok: 0.1, output_per_mtok: 0.1 }),
    ).toBe(3e-7);
  });

  it("prices the prompt tokens the provider's cache served and wrote at their own prices", () => {
    // Claude-like list prices: reads 0.1×, writes 1.25× the input price
    const claude = {
      input_per_mtok: 3,
      output_per_mtok: 15,
      cached_input_per_mtok: 0.3,
      cache_write_per_mtok: 3.75,
    };
    const usage = {
      prompt_tokens: 10_000,
      cached_prompt_tokens: 8_000,
      cache_write_tokens: 1_500,
      completion_tokens: 100,
    };
    // 500 × 3 + 8,000 × 0.3 + 1,500 × 3.75 + 100 × 15 per million
    expect(costOf(usage, claude)).toBe(0.011025);
    // a price without cache prices charges every prompt token the input price
    expect(costOf(usage, { input_per_mtok: 3, output_per_mtok: 15 })).toBe(0.0315);
    expect(pricedUsage(usage, claude)).toEqual({ ...usage, cost_usd: 0.011025 });
  });

  it('bounds the worst a call can cost: the whole prompt at the dearer of input and cache write, and max_tokens', () => {
    const claude = {
      input_per_mtok: 3,
      output_per_mtok: 15,
      cached_input_per_mtok: 0.3,
      cache_write_per_mtok: 3.75,
    };
    expect(worstCaseCost(10_000, 1_000, claude)).toBe(0.0525);
    expect(worstCaseCost(10_000, 1_000, { input_per_mtok: 0.75, output_per_mtok: 4.5 })).toBe(0.012);
  });

  it('leaves the cost out, not at 0, for a model without a price', () => {
    expect(pricedUsage({ prompt_tokens: 3, completion_tokens: 4 }, undefined)).toEqual({
      prompt_tokens: 3,
      completion_tokens: 4,
    });
    expect(pricedUsage({ prompt_tokens: 10, completion_tokens: 5 }, price)).toMatchObject({
      cost_usd: STEP_USD,
    });
  });

  it("a run adds up the cache's counts of its calls, and its cost prices them", async () => {
    const price = { input_per_mtok: 1, output_per_mtok: 2, cached_input_per_mtok: 0.1 };
    const { agent, model } = harness([action('add', { a: 2, b: 3 }), finalAnswer('5')]);
    model.complete = ((complete) => async (request) => ({
      ...(await complete(request)),
      usage: { prompt_tokens: 2_000, cached_prompt_tokens: 1_000, completion_tokens: 10 },
    }))(model.complete.bind(model));
    const result = await agent.run({ message: 'What is 2 + 3?', price });
    expect(result.usage).toEqual({
      prompt_tokens: 4_000,
      cached_prompt_tokens: 2_000,
      completion_tokens: 20,
      cost_usd: 0.00224,
    });
    expect(result.trace.find((step) => step.kind === 'final')?.tokens).toEqual({
      prompt_tokens: 2_000,
      cached_prompt_tokens: 1_000,
      completion_tokens: 10,
    });
  });

  it("a run's reply carries its cost at the price the host gave", async () => {
    const { agent } = harness([action('add', { a: 2, b: 3 }), finalAnswer('5')]);
    const priced = await agent.run({ message: 'What is 2 + 3?', price });
    expect(priced.usage).toEqual({ prompt_tokens: 20, completion_tokens: 10, cost_usd: 2 * STEP_USD });
    const { agent: unpriced } = harness([finalAnswer('5')]);
    expect((await unpriced.run('What is 2 + 3?')).usage).not.toHaveProperty('cost_usd');
  });
});

describe('the cost metric', () => {
  it("tells the host's metrics what each model call of a priced run cost, and nothing for an unpriced one", async () => {
    const costs: [string, number][] = [];
    const metrics = {
      modelCost: (run: { definition: { name: string } }, usd: number) =>
        costs.push([run.definition.name, usd]),
    };
    const { agent } = harness([action('add', { a: 2, b: 3 }), finalAnswer('5')], {}, { metrics });
    await agent.run({ message: 'What is 2 + 3?', price });
    expect(costs).toEqual([
      ['test', STEP_USD],
      ['test', STEP_USD],
    ]);
    const { agent: unpriced } = harness([finalAnswer('5')], {}, { metrics });
    await unpriced.run('What is 2 + 3?');
    expect(costs).toHaveLength(2);
  });
});

describe('max_cost_usd', () => {
  it('stops a ReAct run before a model step whose worst case would pass the budget', async () => {
    const first = harness([finalAnswer('probe')], { max_tokens: 50 });
    await first.agent.run({ message: 'spend', price });
    const worstFirst = costOf(worstCaseBilling(first.model.requests[0]), price);
    const { agent, functions, model } = harness(
      [action('add', { a: 1, b: 1 }), action('add', { a: 2, b: 2 }), finalAnswer('never')],
      { max_tokens: 50, max_cost_usd: 1.5 * worstFirst },
      { billing: worstCaseBilling },
    );
    const result = await agent.run({ message: 'spend', price });
    expect(result).toMatchObject({ finish_reason: 'budget', phase: 'failed' });
    // the second call was never sent: its worst case did not fit in what the first left
    expect(model.requests).toHaveLength(1);
    expect(functions.calls).toHaveLength(1);
    expect(result.usage.cost_usd).toBe(worstFirst);
    expect(result.reply).toContain(`run's cost budget of ${1.5 * worstFirst} USD`);
    expect(result.failure).toBeInstanceOf(LimitExceeded);
  });

  it('stops a plan run before its summary; the steps it ran stay done', async () => {
    const probe = harness([planOf('add', 'multiply'), 'sum'], { mode: 'plan', max_tokens: 50 });
    await probe.agent.run({ message: 'compute', price });
    const [planning, summary] = probe.model.requests.map((request) =>
      costOf(worstCaseBilling(request), price),
    );
    const { agent, functions, model } = harness(
      [planOf('add', 'multiply'), 'never'],
      // room for the plan, not for the plan and the summary's worst case
      { mode: 'plan', max_tokens: 50, max_cost_usd: planning + summary / 2 },
      { billing: worstCaseBilling },
    );
    const result = await agent.run({ message: 'compute', price });
    expect(result.finish_reason).toBe('budget');
    expect(model.requests).toHaveLength(1);
    expect(functions.calls.map((call) => call.name)).toEqual(['add', 'multiply']);
    expect(result.reply).toContain('Done so far: add (success), multiply (success).');
    expect(result.plan?.steps.map((step) => step.status)).toEqual(['completed', 'completed']);
  });

  it('is no limit for a model without a price', async () => {
    const { agent } = harness([action('add', { a: 1, b: 1 }), finalAnswer('2')], { max_cost_usd: 1e-9 });
    expect((await agent.run('spend')).finish_reason).toBe('final');
  });
});
