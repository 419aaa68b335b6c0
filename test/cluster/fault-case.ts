import { monitorEventLoopDelay } from 'node:perf_hooks';
import {
  type Conversation,
  conversationFigures,
  conversationReplies,
  conversations,
  type FaultReport,
} from './cluster-load';
import { type Cluster, startCluster } from './cluster.harness';
import { schedule } from './scheduled';

/** Conversations in flight at once: each holds a run for two model steps of the scripted model's 1 s. */
export const IN_FLIGHT = 50;
/**
 * Load before the fault (a baseline for the delay: two conversations a caller end in it) and after
 * it (the recovery: new conversations start on the mended cluster for three more rounds). Each case
 * lasts about as long as its cron, which the case waits out.
 */
const STEADY_MS = 4_000;
const AFTER_MS = 7_000;
/** The cron ticks from before the fault to past its recovery (~11 fires at the least: see the NATS kill). */
const CRON_FOR_MS = STEADY_MS + AFTER_MS + 4_000;

/** `npm run cluster` for fault cases: the scripted model answers the load's conversations. */
export async function startFaultCluster(): Promise<Cluster> {
  const cluster = await startCluster();
  cluster.llm.setScript({ replies: conversationReplies(cluster) });
  return cluster;
}

/**
 * Runs `inject` under load: ~50 conversations in flight, a cron ticking every second and delays
 * due during the fault; returns what the callers, the fires and the delays lost or doubled.
 * `prefix` tells this case's conversations and tasks from another case's on the same cluster.
 */
export async function underLoad(
  cluster: Cluster,
  prefix: string,
  inject: () => Promise<void>,
): Promise<FaultReport & { done: Conversation[] }> {
  const scheduled = await schedule(cluster, prefix, {
    delays: 6,
    firstDueInMs: STEADY_MS,
    cronForMs: CRON_FOR_MS,
  });
  // The counting function is served from this process: a stall of its own would read as the platform's.
  const lag = monitorEventLoopDelay({ resolution: 20 });
  lag.enable();
  const load = conversations(cluster, IN_FLIGHT, prefix);
  await pause(STEADY_MS);
  const faultAt = Date.now();
  await inject();
  await pause(AFTER_MS);
  const done = await load.stop();
  await scheduled.stop();
  const report: FaultReport = {
    fault: prefix,
    ...conversationFigures(cluster, done, faultAt),
    ...(await scheduled.figures()),
    testLagMaxMs: Math.round(lag.max / 1e6),
  };
  lag.disable();
  console.log(`cluster fault ${JSON.stringify(report)}`);
  if (report.retriedFor.some((reason) => reason.includes('× 500 ')))
    console.log(whyInternal(cluster.output()));
  return { ...report, done };
}

/**
 * A 500 is a defect (a server restarting is answered 503): what the services logged of their
 * unexpected failures (the gateway's `request failed`, a bus handler's `failed unexpectedly`), to trace it.
 */
function whyInternal(output: string): string {
  const logged = output.split('\n').filter((line) => /request failed|failed unexpectedly/.test(line));
  return `cluster fault 500s, what the services logged (${logged.length} lines, the last 10):\n${logged.slice(-10).join('\n')}`;
}

/** The load's own pacing: a fault is injected while it runs, so the wait is the point. */
function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** What every fault must cost: nothing lost, nothing doubled, nobody past their deadline. */
export const NOTHING_LOST = {
  acceptedRunsLost: 0,
  answeredTwice: 0,
  sideEffectsTwice: 0,
  pastDeadline: 0,
  firesLost: 0,
  firesDoubled: 0,
  delaysLost: 0,
  delaysDoubled: 0,
};
