import { JOURNAL_FORMAT } from '@app/agent-core';

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
