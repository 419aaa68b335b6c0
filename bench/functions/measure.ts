/** Latency percentiles in ms from samples in ms. */
export function percentiles(samples: number[]): { p50: number; p99: number; mean: number; n: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
  return {
    p50: at(0.5),
    p99: at(0.99),
    mean: sorted.reduce((s, x) => s + x, 0) / sorted.length,
    n: sorted.length,
  };
}

/** Runs `call` one at a time, `warmup` times unmeasured, then `count` times measured. */
export async function sequentialLatencies(
  call: () => Promise<unknown>,
  count: number,
  warmup: number,
): Promise<number[]> {
  for (let i = 0; i < warmup; i++) await call();
  const samples: number[] = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    await call();
    samples.push(performance.now() - started);
  }
  return samples;
}

/** Completes `count` calls keeping `inFlight` of them running; returns calls per second. */
export async function throughput(
  call: () => Promise<unknown>,
  count: number,
  inFlight: number,
): Promise<number> {
  let started = 0;
  const started_at = performance.now();
  const lane = async () => {
    while (started < count) {
      started += 1;
      await call();
    }
  };
  await Promise.all(Array.from({ length: inFlight }, lane));
  return count / ((performance.now() - started_at) / 1_000);
}
