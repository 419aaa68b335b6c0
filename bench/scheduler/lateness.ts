/** Lateness percentiles (ms) of a set of fires. */
export interface Lateness {
  n: number;
  p50: number;
  p99: number;
  max: number;
}

export function lateness(samples: number[]): Lateness {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) =>
    sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
  return { n: sorted.length, p50: at(0.5), p99: at(0.99), max: sorted[sorted.length - 1] };
}

/** Runs `work(i)` for i in [0, count) with at most `inFlight` at once. */
export async function inLanes(
  count: number,
  inFlight: number,
  work: (i: number) => Promise<unknown>,
): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < count) await work(next++);
  };
  await Promise.all(Array.from({ length: Math.min(inFlight, count) }, lane));
}
