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
