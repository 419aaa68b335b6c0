import { AgentChassisError } from '@app/client';

/** A time in the browser's own time zone. */
export function formatTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString();
}

/** The API's own message for an error, else what the browser said. */
export function errorMessage(err: unknown): string {
  if (err instanceof AgentChassisError) return `${err.message} (${err.code})`;
  if (err instanceof Error) return err.message;
  return String(err);
}

export function json(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    return String(value);
  }
}

/** `1234` → `1,234`; what a count of tokens reads as. */
export function formatCount(n: number | null | undefined): string {
  return n === undefined || n === null ? '—' : n.toLocaleString('en-US');
}

/** USD with enough places to tell a cheap step from a free one. */
export function formatUsd(usd: number | null | undefined): string {
  if (usd === undefined || usd === null) return '—';
  if (usd === 0) return '$0';
  return usd >= 0.01 ? `$${usd.toFixed(2)}` : `$${usd.toPrecision(2)}`;
}

/** `850 ms`, `2.4 s`, `3 min 5 s`. */
export function formatMs(ms: number | null | undefined): string {
  if (ms === undefined || ms === null) return '—';
  if (ms < 1_000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1_000).toFixed(ms < 10_000 ? 2 : 1)} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1_000)} s`;
}

/** `1 run`, `3 runs`. */
export function plural(n: number, word: string): string {
  return `${formatCount(n)} ${word}${n === 1 ? '' : 's'}`;
}
