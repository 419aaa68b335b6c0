// @app/limits: an API key's limits on the runs done for it (concurrent run slots, daily token quota,
// daily USD budget), in Redis so that they hold across replicas; whoever starts a run checks them,
// and the executor holds each model call's worst case in the key's budget before it is sent.
export { AdmittedAhead } from './admitted-ahead';
export { orUnavailable } from './redis-unavailable';
export {
  BUDGET_SPENT,
  type DayLimits,
  QUOTA_USED_UP,
  type RateWindow,
  RunSlots,
  type Slot,
  TOO_MANY_RUNS,
} from './run-slots';
export { type RunCaller, TokenQuotaUsedUpError, UsageLimits } from './usage-limits.service';
export { KeySpend, type SpendReservation } from './key-spend';
export { KeyBudgetRepository, type KeyStanding } from './key-budget.repository';
export { DAY_COUNTER_TTL_MS, spendKeyOf, tokensKeyOf, utcDay } from './key-day';
