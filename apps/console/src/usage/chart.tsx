/** Hand-drawn SVG charts: no library, no request anywhere; every chart also has its numbers as a table. */

export const PALETTE = [
  '#2451b7',
  '#3f9d6b',
  '#c77700',
  '#8a6fd8',
  '#b34d8a',
  '#1c8c99',
  '#7a5c2e',
  '#5b6478',
];

export interface ChartSeries {
  label: string;
  values: (number | null)[];
}

export interface ChartProps {
  title: string;
  /** Each bucket's start (ISO), oldest first. */
  starts: string[];
  series: ChartSeries[];
  format: (value: number) => string;
  /** `stack`: bars stacked by series (counts, tokens, cost); `line`: one line per series (latency). */
  kind: 'stack' | 'line';
  /** What an all-zero chart says instead of its maximum. */
  empty?: string;
}

const HEIGHT = 60;
const SLOT = 10;

export function Chart({ title, starts, series, format, kind, empty }: ChartProps) {
  const width = Math.max(starts.length, 1) * SLOT;
  const totals = starts.map((_, i) => series.reduce((sum, s) => sum + (s.values[i] ?? 0), 0));
  const peaks = kind === 'stack' ? totals : series.flatMap((s) => s.values.map((v) => v ?? 0));
  const max = Math.max(0, ...peaks);
  const y = (v: number) => (max === 0 ? HEIGHT : HEIGHT - (v / max) * HEIGHT);
  const summary = `${title}: ${format(kind === 'stack' ? totals.reduce((a, b) => a + b, 0) : max)} ${
    kind === 'stack' ? 'in all' : 'at most'
  }, peak ${format(max)} in one bucket`;
  return (
    <figure class="chart">
      <figcaption>
        <strong>{title}</strong>{' '}
        <span class="muted">{max > 0 ? `max ${format(max)}` : (empty ?? 'none in this window')}</span>
      </figcaption>
      <svg viewBox={`0 0 ${width} ${HEIGHT}`} preserveAspectRatio="none" role="img" aria-label={summary}>
        <line x1="0" y1={HEIGHT} x2={width} y2={HEIGHT} class="axis" />
        {kind === 'stack' ? <Stacks series={series} y={y} /> : <Lines series={series} y={y} />}
      </svg>
      <div class="chart-axis muted" aria-hidden="true">
        <span>{timeLabel(starts[0])}</span>
        <span>{timeLabel(starts[starts.length - 1])}</span>
      </div>
      <details>
        <summary>Numbers: {title.toLowerCase()}</summary>
        <NumbersTable starts={starts} series={series} format={format} title={title} />
      </details>
    </figure>
  );
}

function Stacks({ series, y }: { series: ChartSeries[]; y: (v: number) => number }) {
  const buckets = series[0]?.values.length ?? 0;
  const rects = [];
  for (let i = 0; i < buckets; i++) {
    let base = 0;
    for (const [s, one] of series.entries()) {
      const value = one.values[i] ?? 0;
      if (value <= 0) continue;
      const top = y(base + value);
      rects.push(
        <rect
          key={`${i}-${s}`}
          x={i * SLOT + 1}
          width={SLOT - 2}
          y={top}
          height={Math.max(y(base) - top, 0.5)}
          fill={PALETTE[s % PALETTE.length]}
        />,
      );
      base += value;
    }
  }
  return <>{rects}</>;
}

function Lines({ series, y }: { series: ChartSeries[]; y: (v: number) => number }) {
  return (
    <>
      {series.map((one, s) => {
        const points = one.values
          .map((v, i) => (v === null ? null : `${i * SLOT + SLOT / 2},${y(v)}`))
          .filter((p): p is string => p !== null);
        const color = PALETTE[s % PALETTE.length];
        return (
          <g key={one.label}>
            <polyline
              points={points.join(' ')}
              fill="none"
              stroke={color}
              stroke-width="1.5"
              vector-effect="non-scaling-stroke"
            />
            {points.map((p) => {
              const [cx, cy] = p.split(',');
              return <circle key={p} cx={cx} cy={cy} r="1.2" fill={color} />;
            })}
          </g>
        );
      })}
    </>
  );
}

function NumbersTable({ starts, series, format, title }: Omit<ChartProps, 'kind'>) {
  const used = starts.map((_, i) => i).filter((i) => series.some((s) => (s.values[i] ?? 0) !== 0));
  if (used.length === 0) return <p class="muted">Nothing in this window.</p>;
  return (
    <div class="table-wrap" tabIndex={0} role="region" aria-label={`${title}, numbers`}>
      <table class="data">
        <thead>
          <tr>
            <th scope="col">From</th>
            {series.map((s) => (
              <th scope="col" key={s.label}>
                {s.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {used.map((i) => (
            <tr key={starts[i]}>
              <th scope="row">{timeLabel(starts[i])}</th>
              {series.map((s) => (
                <td key={s.label}>{s.values[i] === null ? '—' : format(s.values[i]!)}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function timeLabel(iso: string | undefined): string {
  if (!iso) return '';
  return new Date(iso).toLocaleString(undefined, { weekday: 'short', hour: '2-digit', minute: '2-digit' });
}
