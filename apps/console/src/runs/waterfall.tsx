import type { RunView } from '@app/client';
import { formatCount, formatMs, formatUsd } from '../format';
import { axisEnd, type Bar, barsOf, cachedOf, type Marker, markersOf } from './timeline';

/**
 * The run as a waterfall: each model step and function call a bar on the run's clock, with its
 * duration, tokens and cost; takeovers, added messages, hook decisions and approvals as marks.
 * Every bar's numbers are also its text, so the chart reads the same to a screen reader.
 */
export function Waterfall({ run }: { run: RunView }) {
  const { bars, exact } = barsOf(run);
  const markers = markersOf(run);
  const end = axisEnd(bars, markers, run.total_ms);
  const rows = [...bars.map((bar) => ({ bar })), ...markers.map((marker) => ({ marker }))].sort(
    (a, b) => order(a) - order(b),
  );
  if (rows.length === 0) return <p class="muted">No model step or call yet.</p>;
  return (
    <figure class="waterfall">
      <figcaption>
        Timeline on the wall clock, 0 to {formatMs(end)}
        {!exact && (
          <span class="muted"> (placed from the trace: durations of model steps with calls unknown)</span>
        )}
      </figcaption>
      <ol aria-label="Timeline">
        {rows.map((row) =>
          'bar' in row ? (
            <BarRow bar={row.bar} end={end} key={row.bar.key} />
          ) : (
            <MarkerRow marker={row.marker} end={end} key={row.marker.key} />
          ),
        )}
      </ol>
    </figure>
  );
}

/** Bars and marks by step, then by when they started (a mark known only by its step goes first). */
function order(row: { bar: Bar } | { marker: Marker }): number {
  if ('bar' in row) return row.bar.step * 1e9 + row.bar.start_ms + 1;
  return row.marker.step * 1e9 + (row.marker.at_ms ?? 0);
}

function BarRow({ bar, end }: { bar: Bar; end: number }) {
  const left = (bar.start_ms / end) * 100;
  const width = Math.max((bar.elapsed_ms / end) * 100, 0.4);
  const status = bar.status ?? 'success';
  return (
    <li class={`wf-row k-${bar.kind} s-${status}`}>
      <span class="wf-label">{bar.label}</span>
      <span class="wf-track" aria-hidden="true">
        <span
          class="wf-bar"
          style={{ left: `${Math.min(left, 99.6)}%`, width: `${Math.min(width, 100 - left)}%` }}
        />
      </span>
      <span class="wf-meta">
        {formatMs(bar.elapsed_ms)} from {formatMs(bar.start_ms)}
        {bar.usage && <> · {usageText(bar.usage)}</>}
        {bar.kind === 'tool' && status !== 'success' && <> · {status}</>}
        {bar.executed === false && <> · not sent</>}
      </span>
    </li>
  );
}

function MarkerRow({ marker, end }: { marker: Marker; end: number }) {
  return (
    <li class={`wf-row mark mk-${marker.kind}`}>
      <span class="wf-label">{marker.kind === 'approval' ? 'Approval' : capital(marker.kind)}</span>
      <span class="wf-track" aria-hidden="true">
        {marker.at_ms !== null && (
          <span class="wf-mark" style={{ left: `${Math.min((marker.at_ms / end) * 100, 99.6)}%` }} />
        )}
      </span>
      <span class="wf-meta">
        {marker.text}
        {marker.at_ms !== null && <> · at {formatMs(marker.at_ms)}</>}
      </span>
    </li>
  );
}

/** `1,200 prompt (800 cached) + 40 completion tokens · $0.0012` */
export function usageText(usage: RunView['usage']): string {
  const cached = cachedOf(usage);
  const prompt = `${formatCount(usage.prompt_tokens)} prompt${cached ? ` (${formatCount(cached)} cached)` : ''}`;
  const cost = usage.cost_usd === undefined ? '' : ` · ${formatUsd(usage.cost_usd)}`;
  return `${prompt} + ${formatCount(usage.completion_tokens)} completion tokens${cost}`;
}

const capital = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
