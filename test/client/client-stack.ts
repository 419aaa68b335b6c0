import { type ChildProcess, execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { REPO_ROOT, type ServiceProcess, startService } from '@app/testing';
import type { TestFunction } from '../../apps/agent-executor/src/testing/test-functions';
import { add, type ChatStack, startChatStack } from '../chat/chat-stack';

export const ADMIN_KEY = 'ac_client_admin_key_3f9a61c0b2d7e845';
export const CLI = join(REPO_ROOT, 'dist/apps/cli/src/agentchassis.cli.js');

export const addCall = (a: number, b: number) => `<call name="add"><p>a: ${a}</p><p>b: ${b}</p></call>`;

export interface ClientStack extends ChatStack {
  runner: ServiceProcess;
  scheduler: ServiceProcess;
}

/**
 * The four services as built processes (gateway, executor, function-runner, scheduler) with API
 * keys on, the scripted model, a fresh SQLite database, the test's `add` function, an agent
 * `limited` that may take one step only, an agent `approver` whose plans wait for approval and an
 * agent `guarded` whose calls of `add` wait for approval. `env`: more settings for every service;
 * `functions`: more functions served by the test.
 */
export async function startClientStack(
  options: { env?: Record<string, string>; functions?: TestFunction[] } = {},
): Promise<ClientStack> {
  const stack = await startChatStack({
    functions: [add, ...(options.functions ?? [])],
    agents: () => [
      { name: 'limited', max_steps: 1, allowed_tools: ['add'] },
      { name: 'approver', mode: 'plan', allowed_tools: ['add'], plan_approval: true },
      { name: 'guarded', allowed_tools: ['add'], needs_approval: ['add'] },
    ],
    env: { AUTH_ENABLED: 'true', AC_ADMIN_KEY: ADMIN_KEY, ...options.env },
  });
  const env = { ...stack.env, SCHEDULER_QUEUE_PREFIX: `client-${randomUUID().slice(0, 8)}` };
  const started = await Promise.allSettled([
    startService('function-runner', env),
    startService('scheduler', env),
  ]);
  const running = started.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
  const failed = started.find((r) => r.status === 'rejected');
  if (failed) {
    await Promise.all(running.map((s) => s.stop()));
    await stack.close();
    throw failed.reason;
  }
  const [runner, scheduler] = running;
  return {
    ...stack,
    runner,
    scheduler,
    close: async () => {
      await Promise.all([runner.stop(), scheduler.stop()]);
      await stack.close();
    },
  };
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The built CLI as its own process (asynchronously: the scripted model runs in this process). */
export function runCli(
  args: string[],
  env: Record<string, string>,
  input?: string,
  started?: (child: ChildProcess) => void,
): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [CLI, ...args],
      { env: { PATH: process.env.PATH ?? '', ...env }, timeout: 60_000 },
      (err, stdout, stderr) => {
        resolve({ code: err ? ((err as { code?: number }).code ?? null) : 0, stdout, stderr });
      },
    );
    child.stdin?.end(input ?? '');
    started?.(child);
  });
}
