// Resident memory of the gateway and the executor while a round runs: sampled every 100 ms, the
// highest value kept (RSS follows the heap lazily, so the peak is what a pod's limit must allow).
import type { Stack } from './stack';

export type Rss = Record<'gateway' | 'executor', number>;

export async function peakRss<T>(stack: Stack, during: Promise<T>): Promise<{ result: T; peak: Rss }> {
  const peak: Rss = { gateway: 0, executor: 0 };
  const sample = () => {
    const now = stack.rssBytes();
    peak.gateway = Math.max(peak.gateway, now.gateway);
    peak.executor = Math.max(peak.executor, now.executor);
  };
  const timer = setInterval(sample, 100);
  try {
    const result = await during;
    sample();
    return { result, peak };
  } finally {
    clearInterval(timer);
  }
}

export const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(0);
