import { FUNCTION_CALL_STATUSES } from '@app/contracts';
import { initialiseCounter, Metrics } from '@app/observability';

/** `ac_function_calls_total` at 0 for each function served and each outcome, from the first scrape. */
export function initialiseCallMetrics(names: string[]): void {
  const labelSets = names.flatMap((name) =>
    FUNCTION_CALL_STATUSES.map((status) => ({ function: name, status })),
  );
  initialiseCounter(Metrics.functionCalls(), labelSets);
}
