import { Bus, ConnectionLostError, NoRespondersError } from '@app/bus';
import { Backoff, sleep } from '@app/retry';
import {
  AppError,
  type AgentRunReply,
  type AgentRunRequest,
  type RunApproveRequest,
  type RunForkRequest,
  RunHandedOverError,
  Routes,
  type RunView,
  TimeoutError,
  UnavailableError,
} from '@app/contracts';
import type { RunTakeovers } from './run-takeovers';
import { hasAnswered, pendingClientCalls, replyFromRun } from './stored-run-reply';

/** Polls of a stored run: 0.2 s doubling to 2 s. */
const POLLS = { firstMs: 200, maxMs: 2_000 };
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

/** One request on a run, followed: what asks it, and how the stored run tells it was taken up. */
interface Followed {
  runId: string;
  principal?: string;
  ask: (timeoutMs: number) => Promise<AgentRunReply>;
  /**
   * Whether the stored run still waits for this request (no executor took it up yet); unset: the
   * run is unknown until one does.
   */
  waiting?: (run: RunView) => boolean;
  /** Said when no executor answers at all. */
  unavailable: string;
}

/**
 * Follows a run rather than a request: `agent.run` is asked, and if its reply cannot come — the
 * bus connection dropped while it was in flight, or the run moved to another executor (its first
 * one stopped: taken over, or handed over on shutdown) — the run is looked up by its id until it
 * has answered, and the caller gets the reply built from the stored run.
 */
export function followRun(
  bus: Bus,
  request: AgentRunRequest & { run_id: string },
  options: FollowOptions,
): Promise<AgentRunReply> {
  return follow(
    bus,
    {
      runId: request.run_id,
      principal: request.principal,
      ask: (timeoutMs) => bus.request(Routes.agentRun, request, { timeoutMs }),
      // a run going on with the caller's tool results is stored as paused for those calls until an
      // executor takes it up (paused again, it waits for other calls: that is its answer)
      ...(request.tool_results ? { waiting: waitsFor(request.tool_results.map((r) => r.tool_call_id)) } : {}),
      unavailable: 'no agent-executor answers: chat needs one running',
    },
    options,
  );
}

/**
 * Follows an approved plan's run as `followRun` follows a turn: its continuation's reply is lost
 * with the bus connection or with the executor carrying it on, not its answer. A run still
 * awaiting approval once the connection is back never got the approval.
 */
export function followApproval(
  bus: Bus,
  request: RunApproveRequest,
  options: Omit<FollowOptions, 'lostAfterMs'>,
): Promise<AgentRunReply> {
  return follow(
    bus,
    {
      runId: request.run_id,
      principal: request.principal,
      ask: (timeoutMs) => bus.request(Routes.agentRunApprove, request, { timeoutMs }),
      waiting: (run) => run.status === 'awaiting_approval',
      unavailable: 'no agent-executor answers: running a plan needs one running',
    },
    options,
  );
}

async function follow(bus: Bus, followed: Followed, options: FollowOptions): Promise<AgentRunReply> {
  const deadline = Date.now() + options.timeoutMs;
  const watch = options.takeovers?.watch(followed.runId);
  const lost = options.lostAfterMs ? askAgainIfLost(bus, followed, options.lostAfterMs, deadline) : undefined;
  try {
    const asked = [followed.ask(options.timeoutMs)];
    if (watch) asked.push(watch.takenOver.then(() => Promise.reject(new TakenOver())));
    if (lost) asked.push(lost.asked);
    return await Promise.race(asked);
  } catch (err) {
    if (err instanceof NoRespondersError)
      throw new UnavailableError(followed.unavailable, { part: 'agent-executor' });
    if (!(err instanceof ConnectionLostError || err instanceof TakenOver || movedOn(err, followed.runId)))
      throw err;
    return replyOfStoredRun(bus, followed, deadline);
  } finally {
    lost?.stop();
    watch?.stop();
  }
}

/** The run went on elsewhere: handed over, or already recorded when it was asked again. */
function movedOn(err: unknown, runId: string): boolean {
  if (RunHandedOverError.is(err)) return true;
  if (!(err instanceof AppError) || err.code !== 'conflict') return false;
  return (err.details as { run_id?: unknown } | undefined)?.run_id === runId;
}

/**
 * Asks again if, after `lostAfterMs`, no executor knows the run; else `asked` never settles.
 * `stop` once followed: a plain timer, cleared, so a turn that ends in time costs no abort error.
 */
function askAgainIfLost(
  bus: Bus,
  followed: Followed,
  lostAfterMs: number,
  deadline: number,
): { asked: Promise<AgentRunReply>; stop: () => void } {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const asked = new Promise<void>((resolve) => (timer = setTimeout(resolve, lostAfterMs))).then(async () => {
    if ((await lookUp(bus, followed.runId, followed.principal, deadline)) !== null || stopped)
      return new Promise<never>(() => undefined);
    return followed.ask(Math.max(1, deadline - Date.now()));
  });
  const stop = () => {
    stopped = true;
    clearTimeout(timer);
  };
  return { asked, stop };
}

/** Follows a run another request started, by its id, until it has answered. */
export function followStartedRun(
  bus: Bus,
  runId: string,
  principal: string | undefined,
  timeoutMs: number,
): Promise<AgentRunReply> {
  return replyOfStoredRun(bus, { runId, principal }, Date.now() + timeoutMs);
}

/** Whether no executor knows the run (it never started); false when it is known, or could not be asked. */
export async function neverStarted(bus: Bus, runId: string, principal: string | undefined): Promise<boolean> {
  return (await lookUp(bus, runId, principal, Date.now() + NOT_STARTED_AFTER_MS)) === null;
}

/**
 * Polls `agent.runs.get` with backoff until the run has answered, the deadline passes, or no
 * executor took the request up (the run unknown, or still waiting, for a while).
 */
async function replyOfStoredRun(
  bus: Bus,
  { runId, principal, waiting }: Pick<Followed, 'runId' | 'principal' | 'waiting'>,
  deadline: number,
): Promise<AgentRunReply> {
  const polls = new Backoff(POLLS);
  let untakenSince: number | undefined;
  while (Date.now() < deadline) {
    if (await bus.untilConnected(deadline - Date.now())) {
      const run = await lookUp(bus, runId, principal, deadline);
      const untaken = run === null || (run !== undefined && waiting !== undefined && waiting(run));
      if (run && !untaken && hasAnswered(run)) return replyFromRun(run);
      if (untaken) {
        untakenSince ??= Date.now();
        if (Date.now() - untakenSince >= NOT_STARTED_AFTER_MS) throw notTakenUp(runId, run);
      } else untakenSince = undefined;
    }
    await sleep(Math.min(polls.next(), deadline - Date.now()));
  }
  throw new TimeoutError(`run ${runId} did not answer in time; see GET /api/v1/runs/${runId}`);
}

/** A run paused for the caller's tool results, still waiting for (some of) these calls' results. */
function waitsFor(callIds: string[]): (run: RunView) => boolean {
  return (run) =>
    run.status === 'awaiting_tool_results' && pendingClientCalls(run).some((call) => callIds.includes(call));
}

function notTakenUp(runId: string, run: RunView | null): UnavailableError {
  const what =
    run === null
      ? 'before an agent-executor took the run; it did not start'
      : `before an agent-executor took the request up; the run is still ${run.status}`;
  return new UnavailableError(`the connection to NATS was lost ${what}`, { part: 'nats', run_id: runId });
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

/** Follows a fork's new run as `followRun` follows a turn (the run id is the new run's). */
export function followFork(
  bus: Bus,
  request: RunForkRequest,
  options: FollowOptions,
): Promise<AgentRunReply> {
  return follow(
    bus,
    {
      runId: request.run_id,
      principal: request.principal,
      ask: (timeoutMs) => bus.request(Routes.agentRunFork, request, { timeoutMs }),
      unavailable: 'no agent-executor answers: a fork needs one running',
    },
    options,
  );
}
