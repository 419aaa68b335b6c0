import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentRunReply } from '@app/contracts';
import { connectMigrated, type Db } from '@app/persistence';
import {
  expectEventually,
  freshSqliteUrl,
  REPO_ROOT,
  type ScriptedLlm,
  startScriptedLlm,
} from '@app/testing';
import { readEvents } from '../chat/chat-stack';
import { LEASE_ENV } from '../durable/durable-stack';
import { ADMIN_KEY, alive, type NpmStart, startNpm, waitHealthy } from '../platform/npm-start.harness';
import { bearer, post } from './fault-stack';

const ANSWER = 'The answer is 42.';
/** Past it a request counts as hung: the lease lapse, a restart and the answer's model step fit well within. */
const REQUEST_DEADLINE_MS = 45_000;

/**
 * `npm start` as a user runs it, with its supervisor: the executor holding a chat in flight is
 * killed with -9; the run is taken over and the caller, JSON or SSE, gets its answer.
 */
describe.each([
  { executors: 2, how: 'the other executor takes the run over' },
  { executors: 1, how: 'the supervisor restarts the only executor, which takes the run over' },
])('kill -9 of the executor holding a chat, under npm start ($executors executors)', ({ executors, how }) => {
  let llm: ScriptedLlm;
  let app: NpmStart;
  let db: Db;

  beforeAll(async () => {
    llm = await startScriptedLlm();
    const databaseUrl = freshSqliteUrl();
    app = await startNpm(['--scale', `agent-executor=${executors}`], {
      ...LEASE_ENV,
      DATABASE_URL: databaseUrl,
      LLM_BASE_URL: llm.url,
      LLM_MODEL: 'scripted-model',
      LLM_MAX_RETRIES: '0',
    });
    await waitHealthy(app);
    db = (await connectMigrated(databaseUrl, REPO_ROOT)).db;
  }, 90_000);
  afterAll(async () => {
    await db?.$disconnect();
    await app?.close();
    await llm?.close();
  });

  const chat = (message: string, stream: boolean) =>
    post(app.base, '/api/v1/chat', { message, stream }, bearer(ADMIN_KEY));
  /** Kills the executor whose lease the one running run is on; returns the run's id. */
  const killHolder = async (): Promise<string> => {
    let run: { id: string; lease_owner: string | null } | null = null;
    await expectEventually(async () => {
      run = await db.run.findFirst({ where: { status: 'running' }, select: { id: true, lease_owner: true } });
      expect(run).not.toBeNull();
    });
    const { id, lease_owner } = run as unknown as { id: string; lease_owner: string };
    const holder = app.services('agent-executor').find((pid) => lease_owner.includes(`-${pid}-`));
    expect(holder, `no executor of npm start holds ${id} (${lease_owner})`).toBeDefined();
    process.kill(holder!, 'SIGKILL');
    await expectEventually(() => expect(alive(holder!)).toBe(false));
    // the latency kept the model step in flight for the kill; the executor that takes the run
    // over asks it again, and that answers at once
    llm.setScript({ replies: [ANSWER] });
    return id;
  };
  const restarted = () =>
    expectEventually(() => expect(app.services('agent-executor')).toHaveLength(executors), {
      timeoutMs: 30_000,
    });

  it(`answers the JSON caller: ${how}`, { timeout: 90_000 }, async () => {
    llm.setScript({ replies: [{ text: ANSWER, latencyMs: 2_500 }] });
    const asked = Promise.race([chat('What is six times seven?', false), hung()]);
    const runId = await killHolder();

    const answered = await asked;
    expect(answered.status).toBe(200);
    expect((await answered.json()) as AgentRunReply).toMatchObject({ reply: ANSWER, run_id: runId });
    expect(await db.run.findUniqueOrThrow({ where: { id: runId } })).toMatchObject({
      status: 'completed',
      takeovers: 1,
    });
    await restarted();
    expect(app.output()).toMatch(/agentchassis: agent-executor(#\d)? exited \(SIGKILL\)/);
  });

  it(`streams to the SSE caller until run_end with the answer: ${how}`, { timeout: 90_000 }, async () => {
    await restarted();
    llm.setScript({ replies: [{ text: ANSWER, latencyMs: 2_500 }] });
    const streamed = await chat('Answer slowly.', true);
    expect(streamed.status).toBe(200);
    const events = Promise.race([readEvents(streamed), hung()]);
    const runId = await killHolder();

    const told = await events;
    expect(told.find((event) => event.event === 'run_resumed')?.data).toMatchObject({ run_id: runId });
    expect(told.filter((event) => event.event === 'run_end')).toHaveLength(1);
    expect(told.at(-1)).toMatchObject({ event: 'run_end', data: { reply: ANSWER, finish_reason: 'final' } });
    await restarted();
  });
});

/** Rejects once a request has waited past its deadline: a hung request fails the test, not its timeout. */
function hung(): Promise<never> {
  return new Promise((_, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`no answer within ${REQUEST_DEADLINE_MS} ms`)),
      REQUEST_DEADLINE_MS,
    );
    timer.unref();
  });
}
