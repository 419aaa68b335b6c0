import { costOf, roundUsd, worstCaseCost } from '../cost';
import { BudgetRefused } from '../errors';
import type { RunContext } from '../run-context';
import type { CompletionRequest, TokenUsage } from './model-client';
import { promptTokensOf } from './prompt-estimate';

/**
 * The reply tokens a call under a USD budget is bounded to when its agent sets no `max_tokens`:
 * without a bound its worst case, and so what it reserves, would have no limit.
 */
export const BUDGETED_MAX_TOKENS = 4096;

/** What a call holds of the budgets it draws on, until it is settled with what it cost. */
export interface CallHold {
  /** The call was billed `usage`. */
  settle(usage: TokenUsage): void;
  /** The call failed: nothing was billed. */
  release(): void;
}

const NO_HOLD: CallHold = { settle: () => undefined, release: () => undefined };

/**
 * Before a model call is sent: when the run's model has a price and the run has a USD budget
 * (its `max_cost_usd`) or draws on one outside it (`ctx.spend`: its key's day), the call's worst
 * case (the whole prompt at the dearest input price, `max_tokens` of reply) must fit in what is
 * left, or the call is not sent (`BudgetRefused`). The key's share is reserved, and settled at
 * what the call cost. A budget can therefore be overshot only by a provider counting more
 * prompt tokens than this tokenizer does. `request.maxTokens` is set when the agent gives none.
 * Runs without a price or a budget pay nothing for this: no count, no round trip.
 */
export async function holdSpend(ctx: RunContext, request: CompletionRequest): Promise<CallHold> {
  const { run } = ctx;
  const price = run.price;
  if (!price) return NO_HOLD;
  const budget = run.definition.max_cost_usd;
  const ledger = ctx.spend && (await ctx.spend.applies(run)) ? ctx.spend : undefined;
  if (budget === undefined && !ledger) return NO_HOLD;
  request.maxTokens ??= BUDGETED_MAX_TOKENS;
  const worst = worstCaseCost(promptTokensOf(request), request.maxTokens, price);
  const spent = run.cost ?? 0;
  if (budget !== undefined && spent + worst > budget)
    throw new BudgetRefused(
      'run',
      `the next model call may cost up to ${worst} USD, more than the ${roundUsd(Math.max(0, budget - spent))} USD left of the run's cost budget of ${budget} USD`,
    );
  const held = ledger ? await ledger.reserve(run, worst) : undefined;
  if (ledger && !held)
    throw new BudgetRefused(
      'key',
      `the next model call may cost up to ${worst} USD, more than is left of the API key's daily cost budget`,
    );
  return {
    settle: (usage) => held?.settle(costOf(usage, price)),
    release: () => held?.settle(0),
  };
}
