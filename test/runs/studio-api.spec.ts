// The studio's API: agent profiles replaced and deleted, usage by agent and key, a run's waterfall
// and decisions, what a model step saw, forks, MCP servers — against the built services.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentChassisClient, AgentChassisError } from '@app/client';
import { expectEventually, type ServiceProcess, startService } from '@app/testing';
import { ADMIN_KEY, addCall, type ClientStack, startClientStack } from '../client/client-stack';

describe('the studio API (four services as processes, two executors, API keys on)', () => {
  let stack: ClientStack;
  let second: ServiceProcess;
  let admin: AgentChassisClient;
  let alice: AgentChassisClient;
  let aliceKey: { id: string; key: string };
  let reader: AgentChassisClient;

  const as = (key: string) => new AgentChassisClient({ baseUrl: stack.base, apiKey: key });
  const raw = (key: string, method: string, path: string, body?: unknown) =>
    fetch(`${stack.base}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  const failure = async (promise: Promise<unknown>) => {
    const err = await promise.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(AgentChassisError);
    return err as AgentChassisError;
  };
  const systemPromptsSince = (from: number) =>
    stack.llm
      .requests()
      .slice(from)
      .map((r) => (r.body as { messages: { role: string; content: string }[] }).messages[0].content);

  beforeAll(async () => {
    stack = await startClientStack();
    second = await startService('agent-executor', stack.env);
    admin = as(ADMIN_KEY);
    const created = await admin.keys.create({ name: 'alice-chat', scopes: ['chat'], principal: 'alice' });
    aliceKey = { id: created.id, key: created.key };
    alice = as(created.key);
    reader = as((await admin.keys.create({ name: 'reader', scopes: ['functions:read'] })).key);
  }, 60_000);
  afterAll(async () => {
    await second?.stop();
    await stack?.close();
  });

  describe('agent profiles', () => {
    it('replaces a profile made over the API: the next run of the agent, on either executor, uses it', async () => {
      await admin.agents.create({ name: 'editable', system_prompt: 'You are VERSION-ONE.' });
      stack.llm.setScript({ fallback: 'ok' });
      // both executors read (and cache) the first version
      for (let i = 0; i < 6; i++) await admin.chat({ message: `warm ${i}`, agent: 'editable' });
      const updated = await admin.agents.update('editable', {
        name: 'editable',
        system_prompt: 'You are VERSION-TWO.',
        max_steps: 4,
        memory: { enabled: false },
      });
      expect(updated).toMatchObject({ source: 'api', max_steps: 4, system_prompt: 'You are VERSION-TWO.' });
      const from = stack.llm.requests().length;
      for (let i = 0; i < 6; i++) await admin.chat({ message: `after ${i}`, agent: 'editable' });
      const prompts = systemPromptsSince(from);
      expect(prompts).toHaveLength(6);
      for (const prompt of prompts) {
        expect(prompt).toContain('VERSION-TWO');
        expect(prompt).not.toContain('VERSION-ONE');
      }
    });

    it('refuses a bad field, a name other than the path’s, an unknown agent and a configured one', async () => {
      const bad = await raw(ADMIN_KEY, 'PUT', '/api/v1/agents/editable', {
        name: 'editable',
        max_steps: 500,
      });
      expect(bad.status).toBe(400);
      expect(await bad.json()).toMatchObject({
        error: { code: 'invalid_params', details: [{ field: 'max_steps' }] },
      });
      const renamed = await raw(ADMIN_KEY, 'PUT', '/api/v1/agents/editable', { name: 'other' });
      expect(renamed.status).toBe(400);
      expect((await failure(admin.agents.update('nobody', { name: 'nobody' }))).status).toBe(404);
      const configured = await failure(admin.agents.update('guarded', { name: 'guarded' }));
      expect(configured).toMatchObject({ status: 409, code: 'conflict' });
      expect(configured.message).toContain('configuration file');
      expect((await failure(admin.agents.delete('default'))).status).toBe(409);
    });

    it('lets only an admin change or delete a profile', async () => {
      expect((await failure(alice.agents.update('editable', { name: 'editable' }))).status).toBe(403);
      expect((await failure(alice.agents.delete('editable'))).status).toBe(403);
    });

    it('deletes a profile: it is gone on every executor, its runs stay', async () => {
      const runs = await admin.runs.list({ agent: 'editable' });
      expect(runs.items.length).toBeGreaterThan(0);
      await admin.agents.delete('editable');
      expect((await admin.agents.list()).map((a) => a.name)).not.toContain('editable');
      for (let i = 0; i < 4; i++)
        expect((await failure(admin.chat({ message: 'hi', agent: 'editable' }))).status).toBe(404);
      expect((await admin.runs.trace(runs.items[0].id)).agent).toBe('editable');
      expect((await failure(admin.agents.delete('editable'))).status).toBe(404);
    });
  });

  describe("a run's view", () => {
    it('places its model steps and calls on its clock, with tokens, and says who decided a held call', async () => {
      stack.llm.setScript({ replies: [addCall(2, 3), 'Five.'] });
      const held = await alice.chat({ message: 'two plus three, once approved', agent: 'guarded' });
      expect(held.finish_reason).toBe('awaiting_approval');
      const [call] = held.approvals ?? [];
      const done = await alice.runs.approve(held.run_id, { hash: call.hash, call_id: call.call_id });
      expect(done.reply).toBe('Five.');
      const run = await alice.runs.trace(held.run_id);
      expect(run.timeline?.map((s) => [s.kind, s.step, s.name])).toEqual([
        ['model', 1, undefined],
        ['tool', 1, 'add'],
        ['model', 2, undefined],
      ]);
      const [model1, tool, model2] = run.timeline!;
      expect(model1.usage?.prompt_tokens).toBeGreaterThan(0);
      expect(tool.start_ms).toBeGreaterThanOrEqual(model1.start_ms + model1.elapsed_ms);
      expect(model2.start_ms).toBeGreaterThanOrEqual(tool.start_ms);
      expect(tool).toMatchObject({ status: 'success', executed: true });
      expect(run.decisions).toEqual([
        expect.objectContaining({ call_id: call.call_id, function: 'add', action: 'approve', by: 'alice' }),
      ]);
      expect(Date.parse(run.decisions![0].at)).toBeGreaterThanOrEqual(Date.parse(run.decisions![0].asked_at));
    });
  });

  describe('what a model step saw', () => {
    it('rebuilds a step’s request from the journal: system prompt and functions, the message, results, the raw reply', async () => {
      const [run] = (await alice.runs.list({ agent: 'guarded', limit: 1 })).items;
      const view = await alice.runs.stepMessages(run.id, 2);
      expect(view).toMatchObject({
        run_id: run.id,
        step: 2,
        agent: 'guarded',
        protocol: 'xml-toon',
        redacted: false,
      });
      expect(view.messages.map((m) => m.part)).toEqual(['system', 'input', 'assistant', 'result']);
      const [system, input, , result] = view.messages;
      expect(system.content).toContain('## Functions');
      expect(system.content).toContain('add(');
      expect(system.sections?.map((s) => s.name)).toEqual(['instructions', 'guide', 'functions']);
      expect(input.content).toBe('two plus three, once approved');
      expect(result.content).toMatch(/^<result name="add">[\s\S]*sum: 5/);
      for (const m of view.messages) expect(m.tokens).toBeGreaterThan(0);
      expect(view.tokens_by_part.system).toBe(system.tokens);
      expect(view.reply).toMatchObject({ text: 'Five.', tool_calls: [] });
      expect(view.reply.prompt_tokens).toBeGreaterThan(0);
      // the first step saw no result yet, and replied with the call
      const first = await alice.runs.stepMessages(run.id, 1);
      expect(first.messages.map((m) => m.part)).toEqual(['system', 'input']);
      expect(first.reply.text).toContain('<call name="add">');
    });

    it('refuses a step that is not a number from 1, a step the run never took, and another principal’s run', async () => {
      const [run] = (await alice.runs.list({ agent: 'guarded', limit: 1 })).items;
      for (const step of ['0', 'x', '1.5'])
        expect((await raw(aliceKey.key, 'GET', `/api/v1/runs/${run.id}/steps/${step}/messages`)).status).toBe(
          400,
        );
      expect((await failure(alice.runs.stepMessages(run.id, 9))).status).toBe(404);
      expect((await failure(admin.runs.stepMessages(run.id, 1))).status).toBe(404);
      expect((await failure(reader.runs.stepMessages(run.id, 1))).status).toBe(403);
    });
  });

  describe('forks', () => {
    it('forks from step 1 with another message: a new run, a different answer, in a new session', async () => {
      stack.llm.setScript({ rules: [{ match: '10 plus 20', reply: 'Thirty.' }], replies: ['Five.'] });
      const original = await alice.chat({ message: 'What is two plus three?' });
      expect(original.reply).toBe('Five.');
      const fork = await alice.runs.fork(original.run_id, { from_step: 1, message: 'What is 10 plus 20?' });
      expect(fork.reply).toBe('Thirty.');
      expect(fork.run_id).not.toBe(original.run_id);
      expect(fork.session_id).not.toBe(original.session_id);
      const run = await alice.runs.trace(fork.run_id);
      expect(run).toMatchObject({
        input: 'What is 10 plus 20?',
        forked_from: { run_id: original.run_id, step: 1 },
      });
    });

    it('forks from step 2 with another result: step 1 comes from the journal, the model reads the new result', async () => {
      stack.llm.setScript({ replies: [addCall(2, 3), 'Five.'] });
      const original = await alice.chat({ message: 'add two and three' });
      expect(original.reply).toBe('Five.');
      const asked = stack.llm.requests().length;
      const called = stack.functions.calls.length;
      stack.llm.setScript({ rules: [{ match: 'sum: 40', reply: 'Forty.' }], fallback: 'Something else.' });
      const fork = await alice.runs.fork(original.run_id, {
        from_step: 2,
        tool_results: [{ index: 0, result: { sum: 40 } }],
        session: 'same',
      });
      expect(fork.reply).toBe('Forty.');
      expect(fork.session_id).toBe(original.session_id);
      // only step 2 was asked of the model; add was not called again
      expect(stack.llm.requests().length).toBe(asked + 1);
      expect(stack.functions.calls.length).toBe(called);
      const run = await alice.runs.trace(fork.run_id);
      expect(run.trace.map((t) => [t.step, t.kind])).toEqual([
        [1, 'action'],
        [2, 'final'],
      ]);
      expect(run.trace[0].observation).toContain('sum: 40');
      // the fork's own journal holds the copied step: it can be looked into (and forked) in turn
      const seen = await alice.runs.stepMessages(fork.run_id, 2);
      expect(seen.messages.at(-1)).toMatchObject({
        part: 'result',
        content: expect.stringContaining('sum: 40'),
      });
    });

    it('streams the fork’s live steps as chat does', async () => {
      stack.llm.setScript({ replies: ['Five.'] });
      const original = await alice.chat({ message: 'two plus three, again' });
      stack.llm.setScript({ fallback: 'Streamed.' });
      const events = [];
      for await (const event of alice.runs.forkStream(original.run_id, {
        from_step: 1,
        message: 'stream it',
      }))
        events.push(event);
      expect(events[0]).toMatchObject({ type: 'run_start' });
      expect(events.at(-1)).toMatchObject({ type: 'run_end', data: { reply: 'Streamed.' } });
    });

    it('refuses a step past the run’s, results without a step before, an unknown agent, another’s run, a running run', async () => {
      stack.llm.setScript({ replies: ['Five.'] });
      const original = await alice.chat({ message: 'refusals' });
      const fork = (body: unknown, key = aliceKey.key) =>
        raw(key, 'POST', `/api/v1/runs/${original.run_id}/fork`, body);
      const past = await fork({ from_step: 2 });
      expect(past.status).toBe(400);
      expect(await past.json()).toMatchObject({
        error: { code: 'invalid_params', details: [{ field: 'from_step' }] },
      });
      expect((await fork({ from_step: 0 })).status).toBe(400);
      expect((await fork({})).status).toBe(400);
      expect((await fork({ from_step: 1, tool_results: [{ index: 0, result: 1 }] })).status).toBe(400);
      expect((await fork({ from_step: 1, agent: 'nobody' })).status).toBe(404);
      expect((await fork({ from_step: 1 }, ADMIN_KEY)).status).toBe(404);
      const readerKey = (await admin.keys.create({ name: 'reader-2', scopes: ['functions:read'] })).key;
      expect((await fork({ from_step: 1 }, readerKey)).status).toBe(403);
      stack.llm.setScript({ replies: [{ text: 'slow', latencyMs: 3_000 }] });
      const slow = alice.chat({ message: 'take your time' });
      let running = '';
      await expectEventually(async () => {
        running = (await alice.runs.list({ status: 'running', limit: 1 })).items[0]?.id ?? '';
        expect(running).not.toBe('');
      });
      const going = await raw(aliceKey.key, 'POST', `/api/v1/runs/${running}/fork`, { from_step: 1 });
      expect(going.status).toBe(409);
      await slow;
    });
  });

  describe('usage', () => {
    it('counts runs, tokens and latency by agent and by key (named), an admin seeing everyone’s', async () => {
      stack.llm.setScript({ fallback: 'counted' });
      await alice.chat({ message: 'count me', agent: 'limited' });
      const view = await admin.usage({ window: 'day' });
      expect(view.by_agent.find((s) => s.key === 'limited')?.total.runs).toBeGreaterThanOrEqual(1);
      const mine = view.by_key.find((s) => s.key === aliceKey.id);
      expect(mine?.label).toBe('alice-chat');
      expect(mine?.buckets).toHaveLength(24);
      expect(mine!.total.prompt_tokens).toBeGreaterThan(0);
      expect(mine!.total.avg_ms).not.toBeNull();
      expect(view.total.runs).toBeGreaterThan(mine!.total.runs);
      const week = await admin.usage({ window: 'week' });
      expect(week.by_agent[0].buckets).toHaveLength(28);
    });

    it('shows a key only its principal’s runs, and refuses a window it does not know', async () => {
      const view = await alice.usage();
      expect(view.by_key.map((s) => s.key)).toEqual([aliceKey.id]);
      const bad = await raw(aliceKey.key, 'GET', '/api/v1/usage?window=month');
      expect(bad.status).toBe(400);
      expect(JSON.stringify(await bad.json())).toContain('window');
      expect((await failure(reader.usage())).status).toBe(403);
    });
  });

  describe('MCP servers', () => {
    it('lists none when none is configured, to a key that may read functions', async () => {
      await expectEventually(async () =>
        expect(await reader.mcpServers()).toEqual({ servers: [], answered: true }),
      );
      expect((await failure(alice.mcpServers())).status).toBe(403);
    });
  });
});
