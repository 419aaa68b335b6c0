// @app/limits: an API key's limits on the runs done for it (concurrent run slots, daily token quota,
// daily USD budget), in Redis so that they hold across replicas; whoever starts a run checks them.
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
