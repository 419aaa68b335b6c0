import { JOURNAL_FORMAT } from '@app/agent-core';
import { UnavailableError } from '@app/contracts';

/**
 * The format of the run state this executor stores on a run's row (turn_options, plan, trace,
 * approvals). Like the journal's (`JOURNAL_FORMAT`, the engine's), it is written with the run and
 * raised by every executor that carries the run on, so an executor of an older version — still
 * running during a rolling upgrade, or rolled back to — never takes up a run it cannot read.
 */
export const RUN_STATE_FORMAT = 1;

/** The formats this executor writes, as a run's row records them. */
export const WRITTEN_FORMATS = { state_format: RUN_STATE_FORMAT, journal_format: JOURNAL_FORMAT } as const;

/** A row this executor can read: what a claim or a release is conditioned on. */
export const READABLE_FORMATS = {
  state_format: { lte: RUN_STATE_FORMAT },
  journal_format: { lte: JOURNAL_FORMAT },
} as const;

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
