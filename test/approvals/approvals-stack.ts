import { connectMigrated, type Db } from '@app/persistence';
import { REPO_ROOT, type ServiceProcess, startService } from '@app/testing';
import { type FaultStack, startFaultStack } from '../faults/fault-stack';
import { pluginFolder } from '../functions/plugins';
import { LEASE_ENV } from '../durable/durable-stack';

export interface ApprovalsStack {
  stack: FaultStack;
  db: Db;
  /** The function whose calls wait for approval: `{amount, to}` → `sent <amount> to <to>`. */
  transfer: string;
  /** Stops the executor and starts a new one (a restart). */
  restartExecutor(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A gateway, one executor and a function runner with a `transfer` function, on `databaseUrl`:
 * `gated` holds every transfer for a decision; `timed` approves one by itself after a second;
 * `planner` writes plans, whose transfer steps are held the same way; `reviewed` holds its plan whole first.
 * Short leases, so the executors' sweep (which applies the timeout) runs every half second.
 */
export async function startApprovalsStack(databaseUrl: string, ns: string): Promise<ApprovalsStack> {
  const transfer = `${ns}_transfer`;
  const plugin = `export default { name: '${transfer}', description: 'Send money', parameters: { type: 'object', properties: { amount: { type: 'integer' }, to: { type: 'string' } }, required: ['amount', 'to'] }, async execute(p) { return { message: 'sent ' + p.amount + ' to ' + p.to }; } };`;
  const gate = { allowed_tools: ['*'], needs_approval: [transfer] };
  const stack = await startFaultStack({
    services: ['gateway', 'agent-executor', 'function-runner'],
    agents: [
      { name: 'gated', ...gate },
      { name: 'timed', ...gate, approval_timeout: 1_000, approval_default: 'approve' },
      { name: 'planner', mode: 'plan', ...gate },
      { name: 'reviewed', mode: 'plan', plan_approval: true, ...gate },
    ],
    env: {
      DATABASE_URL: databaseUrl,
      FUNCTIONS_DIR: pluginFolder({ 'transfer.mjs': plugin }),
      ...LEASE_ENV,
    },
  });
  const { db } = await connectMigrated(databaseUrl, REPO_ROOT);
  return {
    stack,
    db,
    transfer,
    restartExecutor: async () => {
      await (stack.services['agent-executor'] as ServiceProcess).stop();
      stack.services['agent-executor'] = await startService('agent-executor', stack.env);
    },
    close: async () => {
      await stack.close();
      await db.$disconnect();
    },
  };
}
