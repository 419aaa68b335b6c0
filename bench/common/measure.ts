// Timing helpers: sequential and concurrent rounds of one turn function, and percentiles.

export interface Sample {
  ms: number[];
  failures: number;
  wallMs: number;
  /** The first failure's message, so a failing round says why. */
  firstError?: string;
}

/** What a turn that times itself (in another thread) reports; other turns return nothing. */
export interface SelfTimed {
  ms: number;
}

export type Turn = (i: number) => Promise<void | SelfTimed>;

/** Times each turn it is given, or takes the time it reports; a failed turn is counted, not timed. */
function round() {
  const sample: Sample = { ms: [], failures: 0, wallMs: 0 };
  const started = performance.now();
  return {
    async time(turn: () => Promise<void | SelfTimed>): Promise<void | SelfTimed> {
      const begun = performance.now();
      try {
        const reported = await turn();
        sample.ms.push(reported ? reported.ms : performance.now() - begun);
        return reported;
      } catch (err) {
        sample.failures++;
        sample.firstError ??= String(err);
      }
    },
    done: (): Sample => ({ ...sample, wallMs: performance.now() - started }),
  };
}

/**
 * Alternates a turn of `a` and a turn of `b`, so both see the same machine (a shared machine's
 * speed drifts by tens of percent over minutes). Also the CPU this process used per turn of each
 * side, all its threads counted (GC helpers included, as /proc counts them for other processes):
 * one side runs at a time, so each turn's usage is its own. `warmed` is called between the warm-up
 * and the measured turns: where a caller reads other processes' CPU, so that both sides are counted
 * over the same measured turns (one-time work, a first turn's lazy loads and compilation, in neither).
 */
export async function interleaved(
  turns: number,
  a: Turn,
  b: Turn,
  warmup = 50,
  warmed?: () => void,
): Promise<{ a: Sample; b: Sample; aLocalCpuMs: number; bLocalCpuMs: number }> {
  const { samples, cpuMs } = await rotated(turns, [a, b], warmup, warmed);
  return { a: samples[0], b: samples[1], aLocalCpuMs: cpuMs[0], bLocalCpuMs: cpuMs[1] };
}

/**
 * `interleaved` for any number of sides: one turn of each in turn, so all see the same machine;
 * each side's samples and this process's CPU per turn of it.
 */
export async function rotated(
  turns: number,
  sides: Turn[],
  warmup = 50,
  warmed?: () => void,
): Promise<{ samples: Sample[]; cpuMs: number[] }> {
  for (let i = 0; i < warmup; i++) for (const side of sides) await side(-1 - i);
  warmed?.();
  const rounds = sides.map(() => round());
  const cpu = sides.map(() => 0);
  for (let i = 0; i < turns; i++)
    for (let s = 0; s < sides.length; s++) {
      const before = process.cpuUsage();
      await rounds[s].time(() => sides[s](i));
      const used = process.cpuUsage(before);
      cpu[s] += (used.user + used.system) / 1000;
    }
  return { samples: rounds.map((r) => r.done()), cpuMs: cpu.map((ms) => ms / turns) };
}

export async function concurrent(conversations: number, turn: Turn): Promise<Sample> {
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
  turn: (conversation: number, state: { sessionId?: string }) => Promise<void | SelfTimed>,
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
