import type { RunResumedEvent } from '@app/contracts';
import type { AgentDefinition } from './agent-definition';
import { HookFailed } from './errors';
import type { Hooks, RunJournal } from './ports';
import { ended, type RunOutcome, statusOf } from './run-outcome';
import type { RunState } from './run-state';
import { endedByHook } from './run-turn';

/**
 * What a host adds around a run's work, all optional (the embedded SDK adds nothing): the run
 * registered where it can be found, held while it works, and asked whether it is still its own.
 */
export interface RunHost<D extends AgentDefinition = AgentDefinition> {
  /** Once the run can be cancelled, before it starts (e.g. its record written); a failure is thrown on. */
  register?: (run: RunState<D>) => Promise<void>;
  /** Around the work, whatever happens in it (e.g. the run's lease held, then dropped). */
  started?: (run: RunState<D>) => void;
  stopped?: (run: RunState<D>) => void;
  /** The error text of an unexpected failure (a hook's is named as such); default: its message. */
  unexpected?: (run: RunState<D>, err: unknown) => string;
  /**
   * Asked once the work stopped: an error when the run is no longer this host's to end (handed
   * over to another, which ends it). The frame closes the run's journal and throws it.
   */
  lost?: (run: RunState<D>) => Error | undefined;
}

/** A run's frame: the host's additions, the hooks, the journal, and the turn's work. */
export interface RunFrame<D extends AgentDefinition = AgentDefinition> extends RunHost<D> {
  hooks?: Hooks;
  /** Told the run ended (or was lost), once the frame is done with it. */
  journal?: Pick<RunJournal, 'runEnded'>;
  /** A run carried on from its journal announces this instead of `run_start`. */
  resumed?: RunResumedEvent;
  /** The turn's work: the strategy, and what it loads first. */
  work: () => Promise<RunOutcome>;
}

/**
 * The frame around a run's work, new or carried on, for every host: `run_start` (or `run_resumed`)
 * first, never a crash (a hook that stopped the run or an unexpected error ends it with `error`),
 * the `onTurnEnd` hooks told how it ended (one that fails turns the ending into an error), then
 * the run's phase moved and its ending journaled. The host replies from the outcome returned.
 */
export async function frameRun<D extends AgentDefinition>(
  run: RunState<D>,
  frame: RunFrame<D>,
): Promise<RunOutcome> {
  try {
    await frame.register?.(run);
  } catch (err) {
    run.close();
    throw err;
  }
  run.transition('running');
  announce(run, frame.resumed);
  frame.started?.(run);
  let outcome: RunOutcome;
  try {
    outcome = await frame.work();
  } catch (err) {
    outcome = endedUnexpectedly(run, err, frame);
  } finally {
    run.close();
    frame.stopped?.(run);
  }
  const lost = frame.lost?.(run);
  if (lost) {
    await frame.journal?.runEnded(run, outcome);
    throw lost;
  }
  outcome = await turnEnded(run, outcome, frame);
  run.transition(statusOf(outcome.finishReason));
  await frame.journal?.runEnded(run, outcome);
  return outcome;
}

function announce(run: RunState, resumed?: RunResumedEvent): void {
  if (resumed) return run.emit('run_resumed', resumed);
  const { name, mode, protocol } = run.definition;
  run.emit('run_start', {
    run_id: run.runId,
    session_id: run.identity.sessionId,
    agent: name,
    mode,
    protocol,
  });
}

function endedUnexpectedly<D extends AgentDefinition>(
  run: RunState<D>,
  err: unknown,
  frame: RunFrame<D>,
): RunOutcome {
  if (err instanceof HookFailed) return endedByHook(run, err);
  const error = frame.unexpected ? frame.unexpected(run, err) : (err as Error).message || 'internal error';
  return ended(run, run.abortReason ?? 'error', error);
}

/** The hooks hear how the turn ended; one that fails (a `fail_closed` hook) turns it into an error. */
async function turnEnded<D extends AgentDefinition>(
  run: RunState<D>,
  outcome: RunOutcome,
  frame: RunFrame<D>,
): Promise<RunOutcome> {
  try {
    await frame.hooks?.onTurnEnd?.(run, outcome);
    return outcome;
  } catch (err) {
    return endedUnexpectedly(run, err, frame);
  }
}
