import { collectDefaultMetrics, Counter, Histogram, type Metric, register } from 'prom-client';

/**
 * The platform's Prometheus metrics (`ac_*`, as documented in the README). Every service
 * shares one definition; a metric is created on first use in a process, so each service exports
 * only what it uses. Label values are bounded: no ids, only names from a closed set.
 */
function counter<L extends string>(name: string, help: string, labelNames: readonly L[]): Counter<L> {
  return (
    (register.getSingleMetric(name) as Counter<L> | undefined) ?? new Counter({ name, help, labelNames })
  );
}

function histogram<L extends string>(
  name: string,
  help: string,
  labelNames: readonly L[],
  buckets: number[],
): Histogram<L> {
  return (
    (register.getSingleMetric(name) as Histogram<L> | undefined) ??
    new Histogram({ name, help, labelNames, buckets })
  );
}

const SECONDS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];
const LLM_SECONDS = [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 20, 30, 60, 120];

export const Metrics = {
  llmRequests: () =>
    counter('ac_llm_requests_total', 'LLM requests by provider, model and outcome.', [
      'provider',
      'model',
      'status',
    ]),
  llmDuration: () =>
    histogram(
      'ac_llm_request_duration_seconds',
      'LLM request latency in seconds.',
      ['provider', 'model'],
      LLM_SECONDS,
    ),
  llmTokens: () =>
    counter(
      'ac_llm_tokens_total',
      'LLM tokens by type: prompt (all of them), cached_prompt and cache_write (the parts of prompt read from and written to the provider cache), completion.',
      ['provider', 'model', 'type'],
    ),
  llmCost: () =>
    counter('ac_llm_cost_usd_total', 'USD spent on model calls, at the configured prices.', [
      'agent',
      'model',
    ]),
  functionCalls: () =>
    counter('ac_function_calls_total', 'Function executions by outcome.', ['function', 'status']),
  functionDuration: () =>
    histogram('ac_function_duration_seconds', 'Function execution time in seconds.', ['function'], SECONDS),
  cronExecutions: () => counter('ac_cron_executions_total', 'Scheduled task fires by outcome.', ['status']),
  runs: () => counter('ac_runs_total', 'Agent runs by agent and finish reason.', ['agent', 'finish_reason']),
  runSteps: () =>
    histogram('ac_run_steps', 'Steps (LLM rounds) per agent run.', [], [1, 2, 3, 4, 5, 6, 8, 10, 15, 20, 30]),
  parseFailures: () =>
    counter('ac_protocol_parse_failures_total', 'Model replies the tool protocol could not parse.', [
      'protocol',
    ]),
  tokensSaved: () =>
    counter(
      'ac_tokens_saved_total',
      "Prompt tokens function results' data encoding saved against compact JSON of the same data, from the encoder's own comparison of its candidates (the model's tokenizer).",
      [],
    ),
  runJournalUnwritten: () =>
    counter(
      'ac_run_journal_unwritten_total',
      'Run journal entries not written (a write failed; the run went on, its journal stops before them).',
      [],
    ),
  hookCalls: () =>
    counter('ac_hook_calls_total', 'Agent profile hook calls by event and outcome.', ['event', 'outcome']),
  hookDuration: () =>
    histogram('ac_hook_duration_seconds', 'Agent profile hook call time in seconds.', ['event'], SECONDS),
  runTakeovers: () =>
    counter(
      'ac_run_takeovers_total',
      'Runs taken over from an executor that stopped: resumed from their journal, or failed (nothing could carry them on).',
      ['outcome'],
    ),
  memorySegments: () =>
    counter(
      'ac_memory_segments_total',
      'Segments of finished runs archived to long-term memory (archived), or lost to a failed write (failed).',
      ['status'],
    ),
  runEndsFenced: () =>
    counter(
      'ac_run_ends_fenced_total',
      "Run ends refused because another executor held the run's lease by then: dropped here, ended by that executor.",
      [],
    ),
  memoryEmbeddings: () =>
    counter(
      'ac_memory_embeddings_total',
      'Memory segments embedded for search by meaning (embedded), or left to full-text search by a failed embedding (failed); query embeddings that failed (query_failed).',
      ['status'],
    ),
  busRequestDuration: () =>
    histogram(
      'ac_bus_request_duration_seconds',
      'NATS request/reply latency in seconds.',
      ['subject', 'status'],
      SECONDS,
    ),
  httpRequests: () =>
    counter('ac_http_requests_total', 'Gateway HTTP requests.', ['method', 'route', 'status']),
  httpDuration: () =>
    histogram(
      'ac_http_request_duration_seconds',
      'Gateway HTTP request latency in seconds.',
      ['method', 'route'],
      SECONDS,
    ),
} as const;

/**
 * Exports each given label set of a counter at 0 right away: a series that only appears with its
 * first event leaves `absent()` unable to tell "none yet" from "not running", and `rate()`
 * blind to that first event.
 */
export function initialiseCounter<L extends string>(
  counter: Counter<L>,
  labelSets: Partial<Record<L, string>>[],
): void {
  for (const labels of labelSets) counter.inc(labels, 0);
}

let defaultsStarted = false;

/** Process metrics (CPU, memory, event loop, GC) for the service, once per process. */
export function collectProcessMetrics(service: string): void {
  if (defaultsStarted) return;
  defaultsStarted = true;
  register.setDefaultLabels({ service });
  collectDefaultMetrics();
}

/** A subject's family (`fn.exec`, `agent.run`, `svc.ping`): bounded, unlike the subject itself. */
export function subjectFamily(subject: string): string {
  return subject.split('.').slice(0, 2).join('.');
}

export { register as metricsRegistry };
export type { Metric };
