/** One request of the load: when it started and ended, and its HTTP status ('deadline' if it hung). */
export interface Sample {
  kind: string;
  started: number;
  ended: number;
  status: number | 'deadline' | 'error';
  /** The start of the body of an answer that was neither 200 nor 503, to say what went wrong. */
  body?: string;
}

const PACE_MS = 100;

/**
 * A light load: each worker sends its request in a loop (paced, so failures fast during an
 * outage do not become a flood), every request under a client deadline. `stop` ends the loops
 * and returns every request's sample.
 */
export function lightLoad(
  workers: Record<string, (signal: AbortSignal) => Promise<Response>>,
  deadlineMs: number,
): { samples: Sample[]; stop(): Promise<Sample[]> } {
  const samples: Sample[] = [];
  let running = true;
  const loop = async (kind: string, send: (signal: AbortSignal) => Promise<Response>) => {
    while (running) {
      const started = Date.now();
      let status: Sample['status'];
      let body: string | undefined;
      try {
        const res = await send(AbortSignal.timeout(deadlineMs));
        const text = await res.text();
        status = res.status;
        if (status !== 200 && status !== 503) body = text.slice(0, 300);
      } catch (err) {
        status = (err as Error).name === 'TimeoutError' ? 'deadline' : 'error';
      }
      samples.push({ kind, started, ended: Date.now(), status, ...(body === undefined ? {} : { body }) });
      await new Promise((resolve) => setTimeout(resolve, PACE_MS));
    }
  };
  const loops = Object.entries(workers).map(([kind, send]) => loop(kind, send));
  return {
    samples,
    stop: async () => {
      running = false;
      await Promise.all(loops);
      return samples;
    },
  };
}

/** Milliseconds from `backAt` to the end of the first request of `kind` started since then that succeeded. */
export function servingAgainAfter(samples: Sample[], kind: string, backAt: number): number | undefined {
  const served = samples
    .filter((s) => s.kind === kind && s.started >= backAt && s.status === 200)
    .map((s) => s.ended - backAt);
  return served.length ? Math.min(...served) : undefined;
}
