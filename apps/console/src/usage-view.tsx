import type { UsageBucket, UsageSeries, UsageWindow } from '@app/client';
import { useState } from 'preact/hooks';
import type { ViewProps } from './view-props';
import { formatCount, formatMs, formatUsd, plural } from './format';
import { Chart, type ChartSeries, PALETTE } from './usage/chart';
import { ErrorBox, Section, useLoad } from './ui';

/** Most series a chart draws; the rest are added up as "others". */
const MAX_SERIES = 6;

/** Runs, tokens, cost and latency over the last day or week, by agent or by key, from the database. */
export function UsageView({ client }: ViewProps) {
  const [window, setWindow] = useState<UsageWindow>('day');
  const [by, setBy] = useState<'agent' | 'key'>('agent');
  const usage = useLoad(() => client.usage({ window }), [client, window]);
  const u = usage.value;
  const series = u ? top(by === 'agent' ? u.by_agent : u.by_key) : [];
  const starts = series[0]?.buckets.map((b) => b.start) ?? [];
  const pick = (metric: (b: UsageBucket) => number | null): ChartSeries[] =>
    series.map((s) => ({ label: s.label ?? s.key, values: s.buckets.map(metric) }));
  return (
    <Section title="Usage">
      <div class="row">
        <Toggle
          label="Window"
          value={window}
          set={setWindow}
          options={{ day: 'Last 24 hours', week: 'Last 7 days' }}
        />
        <Toggle label="By" value={by} set={setBy} options={{ agent: 'Agent', key: 'API key' }} />
        <button type="button" class="secondary" onClick={usage.reload}>
          Refresh
        </button>
      </div>
      <ErrorBox error={usage.error} />
      {u && (
        <>
          <Totals total={u.total} truncated={u.truncated} />
          <ul class="legend" aria-label={by === 'agent' ? 'Agents' : 'Keys'}>
            {series.map((s, i) => (
              <li key={s.key}>
                <span class="swatch" style={{ background: PALETTE[i % PALETTE.length] }} aria-hidden="true" />{' '}
                {s.label ?? s.key}: {plural(s.total.runs, 'run')}, {formatUsd(s.total.cost_usd)},{' '}
                {formatMs(s.total.avg_ms)} avg
              </li>
            ))}
            {series.length === 0 && <li class="muted">No runs in this window.</li>}
          </ul>
          {series.length > 0 && (
            <div class="charts">
              <Chart
                title="Runs"
                kind="stack"
                starts={starts}
                series={pick((b) => b.runs)}
                format={formatCount}
              />
              <Chart
                title="Tokens"
                kind="stack"
                starts={starts}
                series={pick((b) => b.prompt_tokens + b.completion_tokens)}
                format={formatCount}
              />
              <Chart
                title="Cost"
                kind="stack"
                starts={starts}
                series={pick((b) => b.cost_usd)}
                format={formatUsd}
              />
              <Chart
                title="Latency p95"
                kind="line"
                starts={starts}
                series={pick((b) => b.p95_ms)}
                format={formatMs}
              />
            </div>
          )}
        </>
      )}
    </Section>
  );
}

function Totals({ total, truncated }: { total: UsageBucket; truncated: boolean }) {
  return (
    <dl class="tiles">
      <div>
        <dt>Runs</dt>
        <dd>
          {formatCount(total.runs)}
          {total.failed > 0 && <span class="bad"> ({formatCount(total.failed)} failed)</span>}
        </dd>
      </div>
      <div>
        <dt>Prompt tokens</dt>
        <dd>
          {formatCount(total.prompt_tokens)}
          {total.cached_prompt_tokens > 0 && (
            <span class="muted"> ({formatCount(total.cached_prompt_tokens)} cached)</span>
          )}
        </dd>
      </div>
      <div>
        <dt>Completion tokens</dt>
        <dd>{formatCount(total.completion_tokens)}</dd>
      </div>
      <div>
        <dt>Cost</dt>
        <dd>{formatUsd(total.cost_usd)}</dd>
      </div>
      <div>
        <dt>Latency</dt>
        <dd>
          {formatMs(total.avg_ms)} avg · {formatMs(total.p95_ms)} p95
        </dd>
      </div>
      {truncated && <p class="muted">Only the newest runs of this window are counted.</p>}
    </dl>
  );
}

/** The series with the most runs, and the others added into one. */
function top(all: UsageSeries[]): UsageSeries[] {
  const sorted = [...all].sort((a, b) => b.total.runs - a.total.runs);
  if (sorted.length <= MAX_SERIES) return sorted;
  const rest = sorted.slice(MAX_SERIES - 1);
  const add = (buckets: UsageBucket[]): UsageBucket =>
    buckets.reduce((sum, b) => ({
      ...sum,
      runs: sum.runs + b.runs,
      failed: sum.failed + b.failed,
      prompt_tokens: sum.prompt_tokens + b.prompt_tokens,
      cached_prompt_tokens: sum.cached_prompt_tokens + b.cached_prompt_tokens,
      completion_tokens: sum.completion_tokens + b.completion_tokens,
      cost_usd: sum.cost_usd + b.cost_usd,
      // a percentile does not add up: the others' slowest
      avg_ms: Math.max(sum.avg_ms ?? 0, b.avg_ms ?? 0) || null,
      p95_ms: Math.max(sum.p95_ms ?? 0, b.p95_ms ?? 0) || null,
    }));
  const others: UsageSeries = {
    key: 'others',
    label: `${rest.length} others`,
    buckets: rest[0].buckets.map((_, i) => add(rest.map((s) => s.buckets[i]))),
    total: add(rest.map((s) => s.total)),
  };
  return [...sorted.slice(0, MAX_SERIES - 1), others];
}

function Toggle<T extends string>({
  label,
  value,
  set,
  options,
}: {
  label: string;
  value: T;
  set: (value: T) => void;
  options: Record<T, string>;
}) {
  return (
    <div class="toggle" role="group" aria-label={label}>
      <span class="muted">{label}:</span>
      {(Object.entries(options) as [T, string][]).map(([key, text]) => (
        <button
          type="button"
          key={key}
          class={value === key ? '' : 'secondary'}
          aria-pressed={value === key}
          onClick={() => set(key)}
        >
          {text}
        </button>
      ))}
    </div>
  );
}
