// What runs cost: at the configured prices, per run, per session and per API key's day, on both databases.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentRunReply, RunView, SessionView } from '@app/contracts';
import { expectEventually, MIGRATED_DATABASES } from '@app/testing';
import { add, type ChatStack, post, readEvents, startChatStack } from './chat-stack';

const ADMIN_KEY = 'ac_test_admin_key_cost_0123456789abcdef';
const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
// 1,000 prompt and 500 completion tokens a call at $1 and $2 per million: $0.002 a model call.
const CALL_USD = 0.002;
const priced = (text: string) => ({ text, usage: { prompt_tokens: 1_000, completion_tokens: 500 } });
const addCall = priced('<call name="add"><p>a: 2</p><p>b: 3</p></call>');

describe.each(MIGRATED_DATABASES)(
  'the cost of runs on $name (gateway and executor processes)',
  (database) => {
    let stack: ChatStack;
    let drop: () => Promise<void>;
    let key: string;

    const createKey = async (body: Record<string, unknown>): Promise<string> => {
      const res = await post(stack.base, '/api/v1/keys', body, bearer(ADMIN_KEY));
      expect(res.status).toBe(201);
      return ((await res.json()) as { key: string }).key;
    };
    const chat = (body: Record<string, unknown>, as = key) =>
      post(stack.base, '/api/v1/chat', body, bearer(as));
    const reply = async (body: Record<string, unknown>, as = key) =>
      (await (await chat(body, as)).json()) as AgentRunReply;
    const read = async <T>(path: string): Promise<T> =>
      (await (await fetch(`${stack.base}${path}`, { headers: bearer(key) })).json()) as T;

    beforeAll(async () => {
      const created = await database.create();
      drop = created.drop;
      stack = await startChatStack({
        functions: [add],
        agents: () => [
          { name: 'calc', allowed_tools: ['add'] },
          // a call's worst case: its prompt (< 1,000 tokens) and 500 of reply, under $0.002
          { name: 'capped', allowed_tools: ['add'], max_cost_usd: 1.5 * CALL_USD, max_tokens: 500 },
          { name: 'thrifty', allowed_tools: ['add'], max_tokens: 500 },
          { name: 'unpriced', allowed_tools: ['add'], model: 'model-without-price' },
        ],
        config: { pricing: { 'scripted-model': { input_per_mtok: 1, output_per_mtok: 2 } } },
        env: { DATABASE_URL: created.url, AUTH_ENABLED: 'true', AC_ADMIN_KEY: ADMIN_KEY, METRICS_PORT: '0' },
      });
      key = await createKey({ name: 'spender', scopes: ['chat'] });
    });
    afterAll(async () => {
      await stack?.close();
      await drop?.();
    });

    it("adds up a session's turns: each run's cost, the session's so far, on the run, the session and run_end", async () => {
      stack.llm.setScript({ rules: [{ match: 'sum', reply: priced('Five.') }], fallback: addCall });
      const first = await reply({ message: 'Two plus three?', agent: 'calc' });
      expect(first).toMatchObject({ finish_reason: 'final', reply: 'Five.' });
      expect(first.usage).toEqual({ prompt_tokens: 2_000, completion_tokens: 1_000, cost_usd: 2 * CALL_USD });
      expect(first.session_cost_so_far).toBe(2 * CALL_USD);

      stack.llm.setScript({ fallback: priced('Still five.') });
      const res = await chat({ message: 'And again?', session_id: first.session_id, stream: true });
      const end = (await readEvents(res)).find((e) => e.event === 'run_end')?.data as AgentRunReply;
      expect(end.usage.cost_usd).toBe(CALL_USD);
      expect(end.session_cost_so_far).toBe(3 * CALL_USD);

      const run = await read<RunView>(`/api/v1/runs/${first.run_id}`);
      expect(run.usage.cost_usd).toBe(2 * CALL_USD);
      const session = await read<SessionView>(`/api/v1/sessions/${first.session_id}`);
      expect(session.cost_so_far).toBe(3 * CALL_USD);

      const port = /probes http:\/\/[^:]+:(\d+)/.exec(stack.executor.output())![1];
      const metrics = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
      expect(metrics).toMatch(
        new RegExp(
          `^ac_llm_cost_usd_total\\{agent="calc",model="scripted-model",service="agent-executor"\\} ${3 * CALL_USD}$`,
          'm',
        ),
      );
    });

    it('max_cost_usd stops a run before the model call whose worst case would pass its budget', async () => {
      stack.llm.setScript({ fallback: addCall });
      stack.llm.clearRequests();
      const stopped = await reply({ message: 'Add forever', agent: 'capped' });
      expect(stopped).toMatchObject({ finish_reason: 'budget', usage: { cost_usd: CALL_USD } });
      expect(stopped.reply).toContain(`run's cost budget of ${1.5 * CALL_USD} USD`);
      expect(stack.llm.requests()).toHaveLength(1);
      const run = await read<RunView>(`/api/v1/runs/${stopped.run_id}`);
      expect(run).toMatchObject({ status: 'failed', finish_reason: 'budget' });
    });

    it('leaves the cost out, not at 0, for a model without a price', async () => {
      stack.llm.setScript({ fallback: priced('Hi.') });
      const free = await reply({ message: 'Hello', agent: 'unpriced' });
      expect(free.finish_reason).toBe('final');
      expect(free.usage).not.toHaveProperty('cost_usd');
      expect(free).not.toHaveProperty('session_cost_so_far');
      expect((await read<RunView>(`/api/v1/runs/${free.run_id}`)).usage).not.toHaveProperty('cost_usd');
      expect((await read<SessionView>(`/api/v1/sessions/${free.session_id}`)).cost_so_far).toBeNull();
    });

    it("holds a key's budget before each model call, then refuses its new runs with 429 budget_exceeded", async () => {
      const frugal = await createKey({ name: 'frugal', scopes: ['chat'], daily_cost_budget_usd: CALL_USD });
      stack.llm.setScript({ rules: [{ match: 'sum', reply: priced('Five.') }], fallback: addCall });
      stack.llm.clearRequests();
      // the first call fits; the second's worst case does not fit in what is left, so it is never sent
      const stopped = await reply({ message: 'Two plus three?', agent: 'thrifty' }, frugal);
      expect(stopped).toMatchObject({ finish_reason: 'budget', usage: { cost_usd: CALL_USD } });
      expect(stopped.reply).toContain("the API key's daily cost budget");
      expect(stack.llm.requests()).toHaveLength(1);
      await expectEventually(async () => {
        const refused = await chat({ message: 'More?', agent: 'thrifty' }, frugal);
        expect(refused.status).toBe(429);
        expect(await refused.json()).toMatchObject({
          error: {
            code: 'budget_exceeded',
            message: expect.stringContaining(`daily cost budget of ${CALL_USD} USD`),
          },
        });
      });
      // Another key's day is its own.
      stack.llm.setScript({ fallback: priced('Hi.') });
      expect((await chat({ message: 'Hello', agent: 'calc' })).status).toBe(200);
    });
  },
);
