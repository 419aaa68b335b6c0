import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectEventually, type ScriptedLlm, startScriptedLlm } from '@app/testing';
import { readEvents, type SseEvent } from '../chat/chat-stack';
import { ADMIN_KEY, alive, type NpmStart, startNpm, waitHealthy } from './npm-start.harness';

const chat = (base: string, body: unknown) =>
  fetch(`${base}/api/v1/chat`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

describe('npm start stopped with a run in flight', () => {
  let llm: ScriptedLlm;
  let app: NpmStart | undefined;

  beforeAll(async () => {
    llm = await startScriptedLlm({ script: { fallback: { text: 'Finished after all.', latencyMs: 3_000 } } });
  });
  afterAll(async () => {
    await app?.close();
    await llm.close();
  });

  it(
    'lets the streaming client get its run_end and the answer, answering new requests 503 meanwhile',
    { timeout: 120_000 },
    async () => {
      const started = await startNpm([], {
        LLM_PROVIDER: 'openai-compatible',
        LLM_BASE_URL: llm.url,
        LLM_MODEL: 'scripted-model',
        LLM_MAX_RETRIES: '0',
      });
      app = started;
      await waitHealthy(started);
      const pids = started.descendants();
      const res = await chat(started.base, { message: 'Take your time', stream: true });
      expect(res.status).toBe(200);
      let refused: Promise<void> | undefined;
      const events = await readEvents(res, (event: SseEvent) => {
        if (event.event !== 'run_start') return;
        started.npm.kill('SIGTERM');
        // While the run finishes, the gateway still listens: /health says draining (a load
        // balancer takes it out) and a new request gets 503 with Retry-After, not a refused connection.
        refused = (async () => {
          await expectEventually(async () => {
            const health = await fetch(`${started.base}/health`);
            expect(health.status).toBe(503);
            expect(await health.json()).toMatchObject({ status: 'draining' });
          });
          const another = await chat(started.base, { message: 'One more' });
          expect(another.status).toBe(503);
          expect(another.headers.get('retry-after')).toBe('5');
          expect(await another.json()).toMatchObject({ error: { code: 'unavailable' } });
        })();
      });
      expect(events.map((e) => e.event)).not.toContain('error');
      expect(events.at(-1)).toMatchObject({
        event: 'run_end',
        data: { reply: 'Finished after all.', finish_reason: 'final' },
      });
      await refused;
      await expectEventually(() => expect(pids.filter(alive)).toEqual([]), { timeoutMs: 15_000 });
      expect(await started.exited).toEqual({ code: 0, signal: null });
    },
  );

  it('stops at once on a second signal, run or no run', { timeout: 120_000 }, async () => {
    await app?.close();
    const started = await startNpm([], {
      LLM_PROVIDER: 'openai-compatible',
      LLM_BASE_URL: llm.url,
      LLM_MODEL: 'scripted-model',
      LLM_MAX_RETRIES: '0',
      SHUTDOWN_TIMEOUT: '60s',
    });
    app = started;
    await waitHealthy(started);
    const pids = started.descendants();
    const res = await chat(started.base, { message: 'Take your time', stream: true });
    const seen: string[] = [];
    const cut = readEvents(res, (event: SseEvent) => {
      seen.push(event.event);
      if (event.event === 'run_start') started.npm.kill('SIGTERM');
    }).then(
      () => 'ended',
      () => 'cut',
    );
    await expectEventually(() => expect(started.output()).toMatch(/agentchassis: stopping \(SIGTERM\)/));
    await new Promise((resolve) => setTimeout(resolve, 600)); // past the window of a forwarded copy
    started.npm.kill('SIGTERM');
    await expectEventually(() => expect(pids.filter(alive)).toEqual([]), { timeoutMs: 2_000 });
    expect(started.output()).toMatch(/agentchassis: SIGTERM again: killing every process now/);
    expect(await cut).toBe('cut');
    expect(seen).toEqual(['run_start']);
  });
});
