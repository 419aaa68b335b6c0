import { setTimeout as sleep } from 'node:timers/promises';
import { Bus, ConnectionLostError, NoRespondersError } from '@app/bus';
import {
  AppError,
  type AgentRunReply,
  type AgentRunRequest,
  RunHandedOverError,
  Routes,
  type RunView,
  TimeoutError,
  UnavailableError,
} from '@app/contracts';
import type { RunTakeovers } from './run-takeovers';
import { hasAnswered, replyFromRun } from './stored-run-reply';

const FIRST_POLL_MS = 200;
const MAX_POLL_MS = 2_000;
/** After the connection is back, how long a run may stay unknown before it is taken as never started. */
export const NOT_STARTED_AFTER_MS = 5_000;

/** The run's `agent.run` reply will not come: another executor carries the run on. */
class TakenOver extends Error {}

export interface FollowOptions {
  timeoutMs: number;
  /** Told when an executor takes a run over. */
  takeovers?: RunTakeovers;
  /**
   * A run still unknown this long after it was asked (an executor's lease lapse) was lost with an
   * executor that stopped before recording it: it is asked once more.
   */
  lostAfterMs?: number;
}

/**
 * Follows a run rather than a request: `agent.run` is asked, and if its reply cannot come — the
 * bus connection dropped while it was in flight, or the run moved to another executor (its first
 * one stopped: taken over, or handed over on shutdown) — the run is looked up by its id until it
 * has answered, and the caller gets the reply built from the stored run.
 */
export async function followRun(
  bus: Bus,
  request: AgentRunRequest & { run_id: string },
  options: FollowOptions,
): Promise<AgentRunReply> {
  const deadline = Date.now() + options.timeoutMs;
  const watch = options.takeovers?.watch(request.run_id);
  const settled = new AbortController();
  try {
    const asked = [bus.request(Routes.agentRun, request, { timeoutMs: options.timeoutMs })];
    if (watch) asked.push(watch.takenOver.then(() => Promise.reject(new TakenOver())));
    if (options.lostAfterMs)
      asked.push(askedAgainIfLost(bus, request, options.lostAfterMs, deadline, settled.signal));
    return await Promise.race(asked);
  } catch (err) {
    if (err instanceof NoRespondersError)
      throw new UnavailableError('no agent-executor answers: chat needs one running', {
        part: 'agent-executor',
      });
    if (!(err instanceof ConnectionLostError || err instanceof TakenOver || movedOn(err, request.run_id)))
      throw err;
    return replyOfStoredRun(bus, request.run_id, request.principal, deadline);
  } finally {
    settled.abort();
    watch?.stop();
  }
}

/** The run went on elsewhere: handed over, or already recorded when it was asked again. */
function movedOn(err: unknown, runId: string): boolean {
  if (RunHandedOverError.is(err)) return true;
  if (!(err instanceof AppError) || err.code !== 'conflict') return false;
  return (err.details as { run_id?: unknown } | undefined)?.run_id === runId;
}

/** Asks `agent.run` again if, after `lostAfterMs`, no executor knows the run; else never settles. */
async function askedAgainIfLost(
  bus: Bus,
  request: AgentRunRequest & { run_id: string },
  lostAfterMs: number,
  deadline: number,
  settled: AbortSignal,
): Promise<AgentRunReply> {
  await sleep(lostAfterMs, undefined, { signal: settled });
  if ((await lookUp(bus, request.run_id, request.principal, deadline)) !== null || settled.aborted)
    return new Promise<never>(() => undefined);
  return bus.request(Routes.agentRun, request, { timeoutMs: Math.max(1, deadline - Date.now()) });
}

/** Follows a run another request started, by its id, until it has answered. */
export function followStartedRun(
  bus: Bus,
  runId: string,
  principal: string | undefined,
  timeoutMs: number,
): Promise<AgentRunReply> {
  return replyOfStoredRun(bus, runId, principal, Date.now() + timeoutMs);
}

/** Whether no executor knows the run (it never started); false when it is known, or could not be asked. */
export async function neverStarted(bus: Bus, runId: string, principal: string | undefined): Promise<boolean> {
  return (await lookUp(bus, runId, principal, Date.now() + NOT_STARTED_AFTER_MS)) === null;
}

/** Polls `agent.runs.get` with backoff until the run has answered, the deadline passes, or it never started. */
async function replyOfStoredRun(
  bus: Bus,
  runId: string,
  principal: string | undefined,
  deadline: number,
): Promise<AgentRunReply> {
  let wait = FIRST_POLL_MS;
  let unknownSince: number | undefined;
  while (Date.now() < deadline) {
    if (await bus.untilConnected(deadline - Date.now())) {
      const run = await lookUp(bus, runId, principal, deadline);
      if (run && hasAnswered(run)) return replyFromRun(run);
      if (run === null) {
        unknownSince ??= Date.now();
        if (Date.now() - unknownSince >= NOT_STARTED_AFTER_MS)
          throw new UnavailableError(
            'the connection to NATS was lost before an agent-executor took the run; it did not start',
            { part: 'nats', run_id: runId },
          );
      } else unknownSince = undefined;
    }
    await new Promise((resolve) => setTimeout(resolve, Math.min(wait, Math.max(0, deadline - Date.now()))));
    wait = Math.min(wait * 2, MAX_POLL_MS);
  }
  throw new TimeoutError(`run ${runId} did not answer in time; see GET /api/v1/runs/${runId}`);
}

/** The stored run; null if no executor knows it; undefined if it could not be asked right now. */
async function lookUp(
  bus: Bus,
  runId: string,
  principal: string | undefined,
  deadline: number,
): Promise<RunView | null | undefined> {
  try {
    const ref = principal ? { run_id: runId, principal } : { run_id: runId };
    return await bus.request(Routes.agentRunGet, ref, { deadline });
  } catch (err) {
    if (err instanceof AppError && err.code === 'not_found') return null;
    return undefined;
  }
}
