import { JOURNAL_FORMAT } from '@app/agent-core';
import { UnavailableError } from '@app/contracts';
import { RUN_STATE_FORMAT } from '../store/run-formats';

export interface RunFormats {
  state_format: number;
  journal_format: number;
}

/**
 * Refuses to carry on a run a newer executor wrote: a clear `unavailable` (another executor, of
 * that version, can), never a half-read run.
 */
export function requireReadable(runId: string, formats: RunFormats): void {
  if (formats.state_format > RUN_STATE_FORMAT)
    throw newerFormat(runId, 'state', formats.state_format, RUN_STATE_FORMAT);
  if (formats.journal_format > JOURNAL_FORMAT)
    throw newerFormat(runId, 'journal', formats.journal_format, JOURNAL_FORMAT);
}

export function newerFormat(runId: string, what: 'state' | 'journal', format: number, reads: number) {
  return new UnavailableError(
    `run '${runId}' was written by a newer agent-executor (its ${what} is in format ${format}; this one reads up to ${reads}): an executor of that version carries it on`,
    { run_id: runId, [`${what}_format`]: format },
  );
}
