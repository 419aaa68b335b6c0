// Timing helpers: sequential and concurrent rounds of one turn function, and percentiles.

export interface Sample {
  ms: number[];
  failures: number;
  wallMs: number;
  /** The first failure's message, so a failing round says why. */
  firstError?: string;
}

/** Times each turn it is given; a failed turn is counted, not timed. */
function round() {
  const sample: Sample = { ms: [], failures: 0, wallMs: 0 };
  const started = performance.now();
  return {
    async time(turn: () => Promise<void>): Promise<void> {
      const begun = performance.now();
      try {
        await turn();
        sample.ms.push(performance.now() - begun);
      } catch (err) {
        sample.failures++;
        sample.firstError ??= String(err);
      }
    },
    done: (): Sample => ({ ...sample, wallMs: performance.now() - started }),
  };
}

export async function sequential(
  turns: number,
  turn: (i: number) => Promise<void>,
  warmup = 50,
): Promise<Sample> {
  for (let i = 0; i < warmup; i++) await turn(-1 - i);
  const timing = round();
  for (let i = 0; i < turns; i++) await timing.time(() => turn(i));
  return timing.done();
}

export async function concurrent(conversations: number, turn: (i: number) => Promise<void>): Promise<Sample> {
  const timing = round();
  await Promise.all(Array.from({ length: conversations }, (_, i) => timing.time(() => turn(i))));
  return timing.done();
}

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/**
 * Conversations that start evenly spread over `rampMs` and each take `turnsEach` turns one after
 * the other: with a ramp as long as one turn, every conversation is in flight at once.
 */
export async function ramped(
  conversations: number,
  rampMs: number,
  turnsEach: number,
  turn: (conversation: number, state: { sessionId?: string }) => Promise<void>,
): Promise<Sample> {
  const timing = round();
  await Promise.all(
    Array.from({ length: conversations }, async (_, i) => {
      await new Promise((resolve) => setTimeout(resolve, (i * rampMs) / conversations));
      const state: { sessionId?: string } = {};
      for (let t = 0; t < turnsEach; t++) await timing.time(() => turn(i, state));
    }),
  );
  return timing.done();
}
