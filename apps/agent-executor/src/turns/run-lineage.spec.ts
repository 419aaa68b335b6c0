import { describe, expect, it } from 'vitest';
import { type AgentProfile, BUILTIN_DEFAULT, resolveProfile } from '../agents/agent-profile';
import { boundedBy } from './run-lineage';

const profile = (over: Partial<AgentProfile> = {}): AgentProfile => ({
  ...resolveProfile(BUILTIN_DEFAULT, 'builtin'),
  ...over,
});
const NOW = 1_000_000;

describe("a child run's limits under its caller's", () => {
  it('ends before the call deadline, leaving time to reply', () => {
    const bounded = boundedBy(profile({ run_timeout: 60_000 }), { chain: [], deadline: NOW + 2_000 }, NOW);
    expect(bounded.run_timeout).toBe(1_750);
  });

  it("keeps the child's own limits when they are tighter", () => {
    const own = profile({ run_timeout: 500, total_token_budget: 10, max_cost_usd: 0.01 });
    const bounded = boundedBy(own, { chain: [], deadline: NOW + 9_000, tokensLeft: 99, costLeftUsd: 1 }, NOW);
    expect(bounded).toMatchObject({ run_timeout: 500, total_token_budget: 10, max_cost_usd: 0.01 });
  });

  it("takes the caller's remaining tokens and cost over no limit of its own", () => {
    const lineage = { chain: ['a'], deadline: NOW + 9_000, tokensLeft: 30, costLeftUsd: 0.5 };
    expect(boundedBy(profile(), lineage, NOW)).toMatchObject({ total_token_budget: 30, max_cost_usd: 0.5 });
  });

  it('leaves a caller with no tokens left a child that stops at its first step (0 would mean no limit)', () => {
    const lineage = { chain: ['a'], deadline: NOW + 9_000, tokensLeft: 0 };
    expect(boundedBy(profile(), lineage, NOW).total_token_budget).toBe(1);
  });
});
