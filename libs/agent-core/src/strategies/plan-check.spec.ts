import { beforeAll, describe, expect, it } from 'vitest';
import type { FunctionDefinition } from '@app/contracts';
import { defineAgent } from '../agent-definition';
import { arithmetic } from '../testing/fixtures.fixture';
import { planErrors } from './plan-check';

let catalogue: readonly FunctionDefinition[] = [];
beforeAll(async () => {
  catalogue = await arithmetic().catalogue();
});
const agent = defineAgent({ name: 'calc', allowed_tools: ['add', 'multiply', 'ghost'], max_steps: 3 });
const step = (tool: string, params: Record<string, unknown> = { a: 1, b: 2 }) => ({
  description: tool,
  tool,
  params,
});

describe("a caller's plan, checked before it runs", () => {
  it('passes a plan of allowed, known functions with valid parameters', async () => {
    expect(planErrors(catalogue, agent, [step('add'), step('multiply')])).toEqual([]);
  });

  it('names every bad step at once: allow-list, unknown function, each bad parameter', async () => {
    const errors = planErrors(
      catalogue,
      agent,
      [step('add'), step('send_email'), step('ghost'), step('multiply', { a: 'two' })],
      'plan.steps',
    );
    expect(errors).toEqual([
      { field: 'plan.steps', message: "has 4 steps; agent 'calc' runs at most 3" },
      { field: 'plan.steps[1].tool', message: "'send_email' is not a function agent 'calc' may call" },
      { field: 'plan.steps[2].tool', message: "no function is named 'ghost'" },
      { field: 'plan.steps[3].parameters.b', message: 'is required' },
      { field: 'plan.steps[3].parameters.a', message: 'must be a number' },
    ]);
  });

  it('refuses an empty plan', async () => {
    expect(planErrors(catalogue, agent, [])).toEqual([
      { field: 'steps', message: 'is empty: a plan has at least one step' },
    ]);
  });
});
