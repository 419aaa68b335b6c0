import { connectMigrated, type Db } from '@app/persistence';
import { REPO_ROOT, type ServiceProcess, startService } from '@app/testing';
import { type FaultStack, startFaultStack } from '../faults/fault-stack';
import { pluginFolder, testPlugins } from '../functions/plugins';

/**
 * Shorter leases than the defaults (2 s / 6 s) in beats, so a takeover comes within the test's
 * patience, with a lapse long enough that a loaded machine (the suite runs files side by side)
 * does not stall a live executor's heartbeat past it: a false takeover re-asks a model step and
 * the tests count model calls. A short shutdown, so a stopping executor hands its run over.
 */
export const LEASE_ENV = {
  AGENT_LEASE_HEARTBEAT: '500ms',
  AGENT_LEASE_LAPSE: '5s',
  SHUTDOWN_TIMEOUT: '1s',
};

export interface DurableStack {
  stack: FaultStack;
  db: Db;
  executors: ServiceProcess[];
  /** The executor whose lease `runId` is on. */
  holderOf(runId: string): Promise<ServiceProcess>;
  /** The one run still running, once there is one. */
  runningRun(): Promise<string | undefined>;
  /** Starts one more executor on the stack. */
  addExecutor(): Promise<ServiceProcess>;
  close(): Promise<void>;
}

/**
 * A gateway, a function runner with the test plugins (`<ns>_*`) and two executors, on `databaseUrl`;
 * agents `helper` (ReAct) and `approver` (a plan held for approval).
 */
export async function startDurableStack(databaseUrl: string, ns: string): Promise<DurableStack> {
  const stack = await startFaultStack({
    services: ['gateway', 'agent-executor', 'function-runner'],
    agents: [
      { name: 'helper', allowed_tools: ['*'] },
      { name: 'approver', mode: 'plan', allowed_tools: ['*'], plan_approval: true },
    ],
    env: { DATABASE_URL: databaseUrl, FUNCTIONS_DIR: pluginFolder(testPlugins(ns)), ...LEASE_ENV },
  });
  const { db } = await connectMigrated(databaseUrl, REPO_ROOT);
  const executors = [stack.services['agent-executor'] as ServiceProcess];
  const addExecutor = async () => {
    const executor = await startService('agent-executor', stack.env);
    executors.push(executor);
    return executor;
  };
  await addExecutor();
  return {
    stack,
    db,
    executors,
    addExecutor,
    holderOf: async (runId) => {
      const row = await db.run.findUniqueOrThrow({ where: { id: runId } });
      const holder = executors.find((e) => row.lease_owner?.includes(`-${e.child.pid}-`));
      if (!holder) throw new Error(`no executor of the stack holds ${runId} (${row.lease_owner})`);
      return holder;
    },
    runningRun: async () => (await db.run.findFirst({ where: { status: 'running' } }))?.id,
    close: async () => {
      // every executor the stack did not start itself: a test that killed the first one takes it out
      // of the list, so "all but the first" would leave one running after the file
      const own = stack.services['agent-executor'];
      await Promise.all(executors.filter((e) => e !== own).map((e) => e.stop()));
      await stack.close();
      await db.$disconnect();
    },
  };
}
